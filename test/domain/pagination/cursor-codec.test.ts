// The cursor codec: a cursor decodes back to its position and is URL-safe text; an edited,
// forged, foreign-list, foreign-secret, garbage or nonsense-position cursor is INVALID_CURSOR (400).
import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../../mock/errors/catalogue';
import { CursorCodec, type CursorPosition } from '../../../mock/domain/pagination/cursor';

describe('cursor codec', () => {
  const codec = new CursorCodec('secret-one');
  const LIST = 'operation:customer-a';

  it.each<CursorPosition>([
    { key: 1, direction: 'NEXT', order: 'DESCENDING' },
    { key: 16, direction: 'PREVIOUS', order: 'ASCENDING' },
    { key: Number.MAX_SAFE_INTEGER, direction: 'NEXT', order: 'ASCENDING' },
    { key: 0, direction: 'PREVIOUS', order: 'DESCENDING' },
  ])('a cursor for %p decodes back to the same position', (position) => {
    expect(codec.decode(LIST, codec.encode(LIST, position))).toEqual(position);
  });

  it('a cursor is URL-safe text', () => {
    expect(codec.encode(LIST, { key: 123456, direction: 'PREVIOUS', order: 'DESCENDING' })).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  function expectInvalid(call: () => unknown): void {
    let thrown: unknown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect((thrown as ServiceError).code).toBe('INVALID_CURSOR');
    expect((thrown as ServiceError).status).toBe(400);
  }

  it('a cursor edited in any one character is rejected with INVALID_CURSOR', () => {
    const cursor = codec.encode(LIST, { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    for (let i = 0; i < cursor.length; i++) {
      if (cursor[i] === '.') continue;
      const replacement = cursor[i] === 'A' ? 'B' : 'A';
      const edited = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      expectInvalid(() => codec.decode(LIST, edited));
    }
  });

  it('a cursor whose payload is re-encoded to point elsewhere is rejected with INVALID_CURSOR', () => {
    const cursor = codec.encode(LIST, { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    const mac = cursor.split('.')[1];
    const forged = `${Buffer.from('1.N.D').toString('base64url')}.${mac}`;
    expectInvalid(() => codec.decode(LIST, forged));
  });

  it('a cursor issued for another list is rejected with INVALID_CURSOR', () => {
    const cursor = codec.encode('operation:customer-b', { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    expectInvalid(() => codec.decode(LIST, cursor));
  });

  it('a cursor signed with another secret is rejected with INVALID_CURSOR', () => {
    const cursor = new CursorCodec('secret-two').encode(LIST, { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    expectInvalid(() => codec.decode(LIST, cursor));
  });

  it.each(['', 'garbage', 'a.b', 'a.b.c', '.', '..', 'MTYuTi5E.', '.abc', '%%%.%%%'])(
    'the string %p is rejected with INVALID_CURSOR',
    (garbage) => {
      expectInvalid(() => codec.decode(LIST, garbage));
    },
  );

  it('a correctly signed cursor with a nonsense position is still rejected with INVALID_CURSOR', () => {
    // Only someone holding the secret could make this, but decode must not trust the payload shape.
    // Bracket access reaches the codec's private signing method, with its types.
    const mac = (payload: string) => codec['mac'](LIST, payload);
    for (const text of ['-1.N.D', 'x.N.D', '1.X.D', '1.N.Z', '1.5.N.D', '1.5.N']) {
      const payload = Buffer.from(text).toString('base64url');
      expectInvalid(() => codec.decode(LIST, `${payload}.${mac(payload)}`));
    }
  });
});
