// The one reader and writer of canonical UUIDs (mock/store/uuid-bytes.ts) that record ids, ids
// inside kept records and idempotency keys are kept through: a canonical lowercase UUID is its 16
// bytes, anything else is refused, wherever in the text it starts; the bytes are written back as
// the same text.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readUuid, writeUuid } from '../../mock/store/uuid-bytes';

const bytesOf = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');

describe('a canonical UUID read as its 16 bytes', () => {
  it('any lowercase UUID is read as the bytes its hex digits name, at any offset in the text and in the output', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.string({ maxLength: 5 }), fc.nat(8), (uuid, before, at) => {
        const into = new Uint8Array(at + 16);
        expect(readUuid(`${before}${uuid}tail`, before.length, into, at)).toBe(true);
        expect(Buffer.from(into.subarray(at))).toEqual(bytesOf(uuid));
      }),
    );
  });

  it('a text that differs from a canonical UUID in any one char is refused', () => {
    // Upper case, a hyphen where a digit goes, a digit where a hyphen goes, a letter past f, a char past 127.
    const replacements = ['A', '-', '0', 'g', 'é', ':'];
    fc.assert(
      fc.property(fc.uuid(), fc.nat(35), fc.constantFrom(...replacements), (uuid, place, char) => {
        const broken = uuid.slice(0, place) + char + uuid.slice(place + 1);
        const stillCanonical = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(broken);
        expect(readUuid(broken, 0, new Uint8Array(16), 0)).toBe(stillCanonical);
      }),
      { numRuns: 2_000 },
    );
  });

  it('the hyphens must stand at 8, 13, 18 and 23: the same digits grouped otherwise are refused', () => {
    const uuid = '0b6a1e4c-2f3d-4e5a-9b8c-7d6e5f4a3b2c';
    expect(readUuid(uuid, 0, new Uint8Array(16), 0)).toBe(true);
    expect(readUuid('0b6a1e4c2-f3d-4e5a-9b8c-7d6e5f4a3b2c', 0, new Uint8Array(16), 0)).toBe(false);
    expect(readUuid('0b6a1e4c-2f3d4-e5a-9b8c-7d6e5f4a3b2c', 0, new Uint8Array(16), 0)).toBe(false);
    expect(readUuid('0b6a1e4c-2f3d-4e5a9-b8c-7d6e5f4a3b2c', 0, new Uint8Array(16), 0)).toBe(false);
    expect(readUuid('0b6a1e4c-2f3d-4e5a-9b8c7-d6e5f4a3b2c', 0, new Uint8Array(16), 0)).toBe(false);
    expect(readUuid(uuid.slice(0, 35), 0, new Uint8Array(16), 0)).toBe(false);
  });

  it('16 bytes are written back as the canonical UUID they were read from, at any offset, touching nothing else', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(8), fc.nat(8), fc.nat(7), (uuid, from, at, sliceAt) => {
        const bytes = new Uint8Array(from + 16).fill(0xff);
        bytes.set(bytesOf(uuid), from);
        // Into a buffer that is a slice of a larger one: the view's offset is the slice's, so nothing before it is written.
        const whole = Buffer.alloc(sliceAt + at + 44, '*');
        const out = whole.subarray(sliceAt, sliceAt + at + 40);
        const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
        expect(writeUuid(bytes, from, view, at)).toBe(at + 36);
        expect(whole.toString('latin1')).toBe(`${'*'.repeat(sliceAt + at)}${uuid}${'*'.repeat(8)}`);
      }),
    );
  });
});
