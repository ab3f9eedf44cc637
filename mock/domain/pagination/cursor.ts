// Opaque, signed cursors (the cursor parameter of the OpenAPI document). A cursor names a position in one list (its
// kind and owner), the direction to walk and the sort order; an HMAC over all of that and the
// list's identity makes a forged, edited or borrowed cursor fail as INVALID_CURSOR.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ServiceError } from '../../errors/catalogue';

export type Direction = 'NEXT' | 'PREVIOUS';
export type SortOrder = 'ASCENDING' | 'DESCENDING';

export interface CursorPosition {
  key: number;
  direction: Direction;
  order: SortOrder;
}

const MAC_BYTES = 16;

export class CursorCodec {
  /** The secret as a key object once, not imported again for every page's MAC. */
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  encode(list: string, position: CursorPosition): string {
    const payload = Buffer.from(`${position.key}.${position.direction[0]}.${position.order[0]}`).toString('base64url');
    return `${payload}.${this.mac(list, payload)}`;
  }

  decode(list: string, cursor: string): CursorPosition {
    const [payload, mac, extra] = cursor.split('.');
    // Stryker disable next-line ConditionalExpression: an empty payload decodes to no direction and is refused below all the same
    if (!payload || !mac || extra !== undefined) throw invalidCursor();
    const expected = Buffer.from(this.mac(list, payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
    const [key, direction, order] = Buffer.from(payload, 'base64url').toString().split('.');
    const parsed = Number(key);
    if (!Number.isSafeInteger(parsed) || parsed < 0 || !['N', 'P'].includes(String(direction)) || !['A', 'D'].includes(String(order)))
      throw invalidCursor();
    return { key: parsed, direction: direction === 'N' ? 'NEXT' : 'PREVIOUS', order: order === 'A' ? 'ASCENDING' : 'DESCENDING' };
  }

  private mac(list: string, payload: string): string {
    return createHmac('sha256', this.key)
      .update(list)
      .update('\u0000')
      .update(payload)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}

function invalidCursor(): ServiceError {
  return new ServiceError('INVALID_CURSOR');
}
