// The memory store's kept form (mock/store/record-codec.ts): whatever it keeps comes back equal,
// key order, undefined fields and odd text included, frozen; what it cannot keep it says so.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { RecordCodec, type RecordOwner } from '../../mock/store/record-codec';

const roundTrip = (codec: RecordCodec, value: unknown) => codec.decode(codec.encode(value)!);

/**
 * A row that names an id and a scope, as a record table does: their 16 bytes when they are
 * canonical (lowercase) UUIDs, else only their text.
 */
function rowOwner(id: (row: number) => string, scope: (row: number) => string): RecordOwner {
  return { rowId: id, rowScope: scope, rowUuid: (row, ofScope, into) => uuidBytes(ofScope ? scope(row) : id(row), into) };
}

function uuidBytes(text: string, into: Uint8Array): boolean {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(text)) return false;
  into.set(Buffer.from(text.replaceAll('-', ''), 'hex'));
  return true;
}

const UUID_A = '3f0e4b1c-9a6d-4e2f-8b7a-1c2d3e4f5a6b';
const UUID_B = '9b2d7e10-1c3a-4f5e-8d6c-0a1b2c3d4e5f';

describe('the record codec', () => {
  it('when given an operation-like record, then it gives back an equal one with the same key order, frozen to the leaves', () => {
    const codec = new RecordCodec();
    const record = {
      id: '3f0e4b1c-9a6d-4e2f-8b7a-1c2d3e4f5a6b',
      customer: { id: 'customer-a' },
      sourceAmount: { asset: 'BRL', value: '1234.56' },
      intent: {
        type: 'DEPOSIT',
        fundingInstruction: { rail: 'PIX', payload: '00020126580014br.gov.bcb.pix', expiresAt: '2025-03-10T14:30:00.000Z' },
      },
      transactions: [{ id: 'tx-1', amount: { asset: 'USDT', value: '0.000001' }, confirmedAt: '1970-01-01T00:00:00.000Z' }],
      tags: [],
      flags: [true, false, null, 0, 7, 2 ** 31, -1, 1.5, -0, Number.MAX_SAFE_INTEGER],
      createdAt: '2025-03-10T14:30:00.123Z',
    };
    const back = roundTrip(codec, record) as typeof record;
    expect(back).toStrictEqual(record);
    expect(JSON.stringify(back)).toBe(JSON.stringify(record));
    expect(Object.is(back.flags[8], -0)).toBe(true);
    expect(Object.isFrozen(back)).toBe(true);
    expect(Object.isFrozen(back.intent.fundingInstruction)).toBe(true);
    expect(Object.isFrozen(back.transactions[0]!.amount)).toBe(true);
  });

  it('when text only looks like a UUID or an instant, then it comes back exactly as it was', () => {
    const codec = new RecordCodec();
    const texts = [
      '3F0E4B1C-9A6D-4E2F-8B7A-1C2D3E4F5A6B',
      '2025-02-30T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '1969-12-31T23:59:59.999Z',
      '2025-03-10T24:00:00.000Z',
      '2025-03-10T14:30:00Z',
      '+275760-09-13T00:00:00.000Z',
      '',
      'São Paulo — 東京 😀',
      'ÿ\u0000\u00ff',
      'x'.repeat(300),
    ];
    expect(roundTrip(codec, { texts })).toStrictEqual({ texts });
  });

  it('when a field is undefined or named __proto__, then it is kept as an own field', () => {
    const codec = new RecordCodec();
    const record = JSON.parse('{"a":1,"__proto__":{"b":2}}') as Record<string, unknown>;
    record.c = undefined;
    const back = roundTrip(codec, record) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['a', '__proto__', 'c']);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(back.c).toBeUndefined();
  });

  it('when a getter removes a field as it is read, then the object is refused rather than kept with a value missing', () => {
    const codec = new RecordCodec();
    const record = {
      a: 1,
      get b() {
        delete (this as { c?: number }).c;
        return 2;
      },
      c: 3,
    };
    expect(codec.encode(record)).toBeUndefined();
  });

  it('when a value is not plain data (a Date, a Map, a class instance, a function), then it refuses to keep it', () => {
    const codec = new RecordCodec();
    class Box {}
    for (const value of [{ at: new Date(0) }, { m: new Map() }, { b: new Box() }, { f: () => 1 }, { n: 1n }]) {
      expect(codec.encode(value)).toBeUndefined();
    }
  });

  it('when dictionary names are added, then records before and after decode the same', () => {
    const codec = new RecordCodec();
    const id = '3f0e4b1c-9a6d-4e2f-8b7a-1c2d3e4f5a6b';
    const before = codec.encode({ accountId: id })!;
    codec.name(id);
    const after = codec.encode({ accountId: id })!;
    expect(after.length).toBeLessThan(before.length);
    expect(codec.decode(before)).toEqual(codec.decode(after));
  });

  it('when a record names the id or scope of the row it is kept in, then each is one byte and comes back from the row', () => {
    const codec = new RecordCodec();
    const id = '3f0e4b1c-9a6d-4e2f-8b7a-1c2d3e4f5a6b';
    const scope = '9b2d7e10-1c3a-4f5e-8d6c-0a1b2c3d4e5f';
    const timeline = { id, operationId: scope, eventType: 'OPERATION_REQUESTED', note: id };
    const owner = rowOwner(
      (row) => (row === 7 ? id : 'another'),
      (row) => (row === 7 ? scope : 'another'),
    );
    const plain = codec.encode(timeline)!;
    const owned = codec.encode(timeline, { id, scope })!;
    // Three texts of 36 chars, 17 bytes each as UUIDs, are one byte each.
    expect(plain.length - owned.length).toBe(3 * 16);
    const back = codec.decode(owned, owner, 7);
    expect(back).toStrictEqual(timeline);
    expect(JSON.stringify(back)).toBe(JSON.stringify(timeline));
  });

  it('when a record kept by reference to its row is decoded without the row, then it says so rather than guess', () => {
    const codec = new RecordCodec();
    const kept = codec.encode({ id: 'x-1' }, { id: 'x-1', scope: 'all' })!;
    expect(() => codec.decode(kept)).toThrow(/refers to a row, and none was named/);
  });

  it('when any JSON value is encoded for a row, then decoding it for that row gives it back exactly', () => {
    const text = fc.oneof(fc.constantFrom('row-id', 'row-scope', 'all', ''), fc.string({ maxLength: 40 }), fc.uuid());
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    })).value;
    fc.assert(
      fc.property(json, fc.constantFrom('row-id', 'all'), fc.constantFrom('row-scope', 'all', ''), (value, id, scope) => {
        const codec = new RecordCodec();
        const owner = rowOwner(
          () => id,
          () => scope,
        );
        const kept = codec.encode(value, { id, scope })!;
        expect(JSON.stringify(codec.decode(kept, owner, 0))).toBe(JSON.stringify(value));
      }),
    );
  });

  it('when a record repeats an instant or holds a SHA-256 digest, then each is kept in fewer bytes and comes back as it was', () => {
    const codec = new RecordCodec();
    const at = '2025-03-10T14:30:00.123Z';
    const digest = 'M7BKdjRtzIJ8MSnXdp0MKP1gwLCNcuECOE_IQYpiSt0';
    const once = codec.encode({ createdAt: at, updatedAt: '2025-03-10T14:30:05.000Z' })!;
    const twice = codec.encode({ createdAt: at, updatedAt: at })!;
    expect(twice.length).toBe(once.length - 5);
    // Text that only looks like a digest (its last char carries bits 32 bytes do not have) is kept as text:
    // a tag, its length and 43 chars, where a digest is a tag and 32 bytes.
    const lookalike = `${digest.slice(0, 42)}1`;
    expect(codec.encode({ fingerprint: digest })!.length).toBe(codec.encode({ fingerprint: lookalike })!.length - 12);
    const record = { a: at, digest, lookalike, nested: [{ b: at }, { c: '2025-03-10T14:30:05.000Z', d: at }] };
    expect(JSON.stringify(roundTrip(codec, record))).toBe(JSON.stringify(record));
  });

  it("when an instant, a digest or a UUID is kept, then its bytes are the layout's: ms big-endian, 32 bytes, 16 bytes", () => {
    const codec = new RecordCodec();
    // The last bytes of a one-field object's kept form are its value's: a tag, then the value's bytes.
    const tail = (value: string, n: number) => Buffer.from(codec.encode({ v: value })!, 'latin1').subarray(-n);
    const at = '2286-11-20T17:46:39.999Z';
    const ms = Date.parse(at);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(ms));
    expect(tail(at, 6).toString('hex')).toBe(big.subarray(2).toString('hex'));
    const digest = Buffer.alloc(32, 0xa7).toString('base64url');
    expect(tail(digest, 32).toString('hex')).toBe('a7'.repeat(32));
    const uuid = '0123abcd-4567-89ef-8f4d-00112233ffee';
    expect(tail(uuid, 16).toString('hex')).toBe(uuid.replace(/-/g, ''));
  });

  it('when text of one-byte chars ends in a wide one, or any text outgrows the buffer, then it comes back whole', () => {
    const codec = new RecordCodec();
    const long = 'x'.repeat(5000);
    const record = { a: 'amount 100.00 ação', b: `${long}€`, c: long, d: `€${'é'.repeat(3000)}`, e: '9'.repeat(9000) };
    expect(roundTrip(codec, record)).toStrictEqual(record);
    // Two bytes a char only where a char needs two: 'é' fits one byte.
    expect(codec.encode({ t: 'é'.repeat(100) })!.length).toBeLessThan(codec.encode({ t: '€'.repeat(100) })!.length - 90);
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 30 }), (texts) => {
        const value = Object.fromEntries(texts.map((text, i) => [`k${i}`, text]));
        expect(roundTrip(new RecordCodec(), value)).toStrictEqual(value);
      }),
    );
  });

  it('when any record of instants and digests is encoded, then it decodes to the same JSON', () => {
    const instant = fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }).map((d) => d.toISOString());
    const digest = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64url'));
    const text = fc.oneof(instant, digest, fc.string({ minLength: 43, maxLength: 43, unit: fc.constantFrom(...'Aw0_-=+/') }));
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxLength: 8 }), (values) => {
        const codec = new RecordCodec();
        const record = Object.fromEntries(values.map((value, i) => [`k${i}`, value]));
        expect(JSON.stringify(roundTrip(codec, record))).toBe(JSON.stringify(record));
      }),
    );
  });

  it('when a record holds whole numbers up to 2^53 (an expiry in ms), then each is a varint and comes back exact', () => {
    const codec = new RecordCodec();
    // 1.8e12 ms (a 2027 expiry) takes 41 bits: six varint bytes and a tag, where 8 bytes of float and a tag were 9.
    expect(codec.encode({ expiresAt: 1_795_744_156_111 })!.length).toBe(codec.encode({ expiresAt: 0 })!.length + 5);
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.integer(), fc.double(), (whole, any, double) => {
        const record = { whole, any, double };
        const back = roundTrip(codec, record) as typeof record;
        expect(Object.is(back.double, double)).toBe(true);
        expect(back).toStrictEqual(record);
      }),
    );
  });
  it('when a kept form is read from bytes inside a larger buffer, then only its own bytes are read, and one cut short is refused', () => {
    const codec = new RecordCodec();
    const record = { id: 'abc', amount: { asset: 'BRL', value: '1.50' }, at: '2025-03-10T14:30:00.123Z', digest: 'x'.repeat(42) + 'A' };
    const length = codec.encodeBytes(record)!;
    const buffer = Buffer.alloc(length + 20, 0xff);
    buffer.set(codec.bytes.subarray(0, length), 10);
    expect(codec.decodeBytes(buffer, 10, length)).toStrictEqual(record);
    for (const cut of [1, 5, length - 1]) expect(() => codec.decodeBytes(buffer, 10, cut)).toThrow(/record codec: the kept form ends/);
  });

  it('when a record is decoded with a hidden property, then only its top level has it, and nothing that reads the record sees it', () => {
    const codec = new RecordCodec();
    const key = Symbol('place');
    const record = { id: 'op-1', amount: { asset: 'BRL', value: '1.50' }, tags: [{ key: 'a', value: 'b' }] };
    const length = codec.encodeBytes(record)!;
    const bytes = Buffer.from(codec.bytes.subarray(0, length));
    const place = { row: 7 };
    const back = codec.decodeBytes(bytes, 0, length, undefined, -1, { key, value: place }) as Record<string | symbol, unknown>;
    expect(back[key]).toBe(place);
    expect(Object.isFrozen(back)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(back, key)).toEqual({ value: place, writable: false, enumerable: false, configurable: false });
    expect((back.amount as Record<symbol, unknown>)[key]).toBeUndefined();
    expect(JSON.stringify(back)).toBe(JSON.stringify(record));
    expect(Object.keys(back)).toEqual(Object.keys(record));
    expect(back).toStrictEqual(record);
    // A copy made from it (a service's `{ ...record, status }`) does not carry it.
    expect(({ ...back } as Record<symbol, unknown>)[key]).toBeUndefined();
    // The next decode without one gets none; a value that is not an object gets none either.
    expect((codec.decodeBytes(bytes, 0, length) as Record<symbol, unknown>)[key]).toBeUndefined();
    const list = [{ id: 'x' }];
    const listLength = codec.encodeBytes(list)!;
    const listBytes = Buffer.from(codec.bytes.subarray(0, listLength));
    const listBack = codec.decodeBytes(listBytes, 0, listLength, undefined, -1, { key, value: place });
    expect((listBack as Array<Record<symbol, unknown>>)[0]![key]).toBeUndefined();
    expect(listBack).toStrictEqual(list);
  });

  it('when a kept form is written as JSON, then it is the text JSON.stringify gives for its decoded value, whatever it holds', () => {
    const instant = fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }).map((d) => d.toISOString());
    const digest = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64url'));
    // Names (no digits: dictionary entries), escapes, wide text, the row's own id and scope, UUIDs, instants, digests.
    const text = fc.oneof(
      fc.constantFrom('row-id', 'row-scope', UUID_A, UUID_B, 'BRL', 'SETTLED', '', 'a"b\\c\n\u0001', '__proto__', 'toJSON', '1'),
      fc.string({ maxLength: 30 }),
      fc.string({ maxLength: 8, unit: 'binary' }),
      fc.uuid(),
      instant,
      digest,
    );
    const number = fc.oneof(fc.maxSafeNat(), fc.integer(), fc.double(), fc.constantFrom(-0, NaN, Infinity, 2 ** 53));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, number, fc.boolean(), fc.constantFrom(null, undefined), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
    })).value;
    fc.assert(
      // The row's id and scope as other text, or as UUIDs (written from their bytes), upper case among them (text).
      fc.property(
        json,
        fc.constantFrom(['row-id', 'row-scope'], [UUID_A, UUID_B], [UUID_A.toUpperCase(), UUID_B]),
        (value, [id, scope]) => {
          const codec = new RecordCodec();
          const owner = rowOwner(
            () => id,
            () => scope,
          );
          const kept = codec.encode(value, { id: id, scope: scope })!;
          // Twice: the second time the dictionary's and the shapes' JSON are the ones kept from the first.
          for (let i = 0; i < 2; i++) expect(codec.json(kept, owner, 0)).toBe(JSON.stringify(codec.decode(kept, owner, 0)));
          expect(codec.json(kept, owner, 0)).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('when a record with undefined fields is written as JSON, then they are left out of objects and null in arrays', () => {
    const codec = new RecordCodec();
    const record = {
      id: 'op-1',
      note: undefined,
      at: '2025-03-10T14:30:00.123Z',
      again: '2025-03-10T14:30:00.123Z',
      list: [undefined, 1, -0],
    };
    const kept = codec.encode(record, { id: 'op-1', scope: 'c' })!;
    expect(
      codec.json(
        kept,
        rowOwner(
          () => 'op-1',
          () => 'c',
        ),
        0,
      ),
    ).toBe('{"id":"op-1","at":"2025-03-10T14:30:00.123Z","again":"2025-03-10T14:30:00.123Z","list":[null,1,0]}');
    expect(codec.json(codec.encode(undefined)!)).toBeUndefined();
  });

  it('when a record written as JSON outgrows its buffer, then it is still whole, instants repeated across the growth', () => {
    const codec = new RecordCodec();
    const at = '2025-03-10T14:30:00.123Z';
    const record = { first: at, long: 'x'.repeat(5000), again: at, list: Array.from({ length: 300 }, (_, i) => ({ at, i, n: `é${i}` })) };
    const kept = codec.encode(record)!;
    expect(codec.json(kept)).toBe(JSON.stringify(record));
  });

  it('when a record has a key of thirty million chars (a snapshot may hold one), then its JSON is written like any other', () => {
    const codec = new RecordCodec();
    const record = { ['k'.repeat(30_000_000)]: 1, [`"quoted" é ${'x'.repeat(100)}`]: 'long key with escapes', short: true };
    expect(codec.json(codec.encode(record)!)).toBe(JSON.stringify(record));
  });

  it("when a record has more keys than a writer is generated for, then its JSON is JSON.stringify's, undefined fields left out", () => {
    const codec = new RecordCodec();
    for (const count of [256, 257, 1000]) {
      const record = Object.fromEntries(Array.from({ length: count }, (_, i) => [`key-${i}`, i % 3 === 0 ? undefined : i]));
      expect(codec.json(codec.encode(record)!)).toBe(JSON.stringify(record));
      expect(codec.json(codec.encode({ nested: [record, { ...record, extra: 'x' }] })!)).toBe(
        JSON.stringify({ nested: [record, { ...record, extra: 'x' }] }),
      );
    }
  });

  it('when a record has a key or a name beyond ASCII, then it is written as JSON.stringify writes it', () => {
    const codec = new RecordCodec();
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [i === 299 ? 'préço' : `key-${i}`, i % 3 === 0 ? undefined : i]));
    // Among them a shape of 300 keys (written by a loop) and a key beyond ASCII whose field is left out (undefined).
    const records = [{ ação: 1 }, { status: 'CONFIRMADA', owner: 'São Paulo' }, many, { ключ: undefined, id: 'x' }, { ascii: 'only' }];
    for (const record of records) expect(codec.json(codec.encode(record)!)).toBe(JSON.stringify(record));
    // A name (dictionary entry, no digits) beyond ASCII, again after the dictionary has its JSON.
    for (let i = 0; i < 2; i++) expect(codec.json(codec.encode({ owner: 'Müller' })!)).toBe('{"owner":"Müller"}');
  });

  it("when the dictionary names' JSON outgrows its first buffer, then names from before and after are written exactly", () => {
    const codec = new RecordCodec();
    // Names have no digits: the index spelt in letters. 80 names of about 30 chars: over 2 KB of JSON.
    const nameOf = (i: number) => `Moraes Moreira e Filhos ${[...String(i)].map((d) => 'abcdefghij'[Number(d)]).join('')}`;
    const names = Array.from({ length: 80 }, (_, i) => nameOf(i));
    for (const name of names) expect(codec.json(codec.encode({ owner: name })!)).toBe(JSON.stringify({ owner: name }));
    const both = { first: names[0], last: names[79], again: names[40] };
    expect(codec.json(codec.encode(both)!)).toBe(JSON.stringify(both));
  });

  it('when a kept instant lies past 9999 (a form made by hand), then it and its repeat are written as Date writes them', () => {
    const codec = new RecordCodec();
    const text = '2026-01-01T00:00:00.000Z';
    const form = Buffer.from(codec.encode({ a: text, b: text })!, 'latin1');
    const ms = Buffer.alloc(8);
    ms.writeBigUInt64BE(BigInt(Date.parse(text)));
    // The six bytes of the first instant (the second is kept as a repeat of it), set to 2^48 - 1 ms: the year 10889.
    const at = form.indexOf(ms.subarray(2));
    form.fill(0xff, at, at + 6);
    const kept = form.toString('latin1');
    const far = new Date(2 ** 48 - 1).toISOString();
    expect(codec.json(kept)).toBe(JSON.stringify({ a: far, b: far }));
    expect(codec.json(kept)).toBe(JSON.stringify(codec.decode(kept)));
  });

  it('when a record names far dictionary entries and shapes (one- to three-byte numbers), then it is written and read exactly', () => {
    const codec = new RecordCodec();
    // 20,000 names and shapes: their numbers pass 127 (two varint bytes) and 16,383 (three).
    for (let i = 0; i < 20_000; i++) codec.name(`name-${i}`);
    for (let i = 0; i < 20_000; i++) codec.encode({ [`field-${i}`]: true });
    for (const n of [5, 200, 16_383, 16_384, 19_999]) {
      const record = { [`field-${n}`]: `name-${n}`, list: [`name-${n}`, { [`field-${n}`]: n }] };
      const kept = codec.encode(record)!;
      expect(codec.json(kept)).toBe(JSON.stringify(record));
      expect(codec.decode(kept)).toStrictEqual(record);
    }
  });

  it('when a kept form cut short is written as JSON, then it is refused as decoding refuses it', () => {
    const codec = new RecordCodec();
    const record = { id: '3f0e4b1c-9a6d-4e2f-8b7a-1c2d3e4f5a6b', amount: { asset: 'BRL', value: '1.50' }, at: '2025-03-10T14:30:00.123Z' };
    const length = codec.encodeBytes(record)!;
    const buffer = Buffer.alloc(length + 20, 3);
    buffer.set(codec.bytes.subarray(0, length), 0);
    for (let cut = 1; cut < length; cut++) expect(() => codec.jsonBytes(buffer, 0, cut)).toThrow(/record codec: the kept form ends/);
  });
});
