// The deposit BR Code's inputs: the operation id must be exactly a uuid, the payload URL always
// fits the merchant account template, and any text that is not a BR Code (empty, not a string)
// reads as invalid rather than throwing.
import { describe, expect, it } from '@jest/globals';
import { BR_CODE_URL_PREFIX, buildDepositBrCode, depositBrCodeUrl, isValidBrCode, parseDepositBrCode } from '../../mock/domain/pix';

const operationId = '3f2c9a1e-7b4d-4c8e-9a0f-1d2e3f4a5b6c';

describe('the payload URL of a deposit BR Code', () => {
  it('is the prefix and the 32 hex digits of the uuid, lower case, 57 characters (tag 26 leaves at most 77)', () => {
    const url = depositBrCodeUrl(operationId.toUpperCase());
    expect(url).toBe('pix.fos-mock.local/qr/v2/3f2c9a1e7b4d4c8e9a0f1d2e3f4a5b6c');
    expect(url.startsWith(BR_CODE_URL_PREFIX)).toBe(true);
    expect(url).toHaveLength(57);
    expect(url.length).toBeLessThanOrEqual(77);
  });

  it.each([
    ['a uuid with extra hex digits after it', `${operationId}ab`],
    ['a uuid with extra hex digits before it', `ab${operationId}`],
    ['a uuid missing a digit', operationId.slice(0, -1)],
    ['a non-hex character', operationId.replace('f', 'g')],
    ['an empty id', ''],
  ])('rejects %s with a TypeError naming the id', (_, id) => {
    expect(() => depositBrCodeUrl(id)).toThrow(new TypeError(`operationId must be a uuid, got ${JSON.stringify(id)}`));
    expect(() => buildDepositBrCode({ operationId: id, merchantName: 'Acme', merchantCity: 'Recife' })).toThrow(TypeError);
  });
});

describe('reading text that is not a BR Code', () => {
  it('an empty text is not valid and has no fields', () => {
    expect(isValidBrCode('')).toBe(false);
    expect(parseDepositBrCode('')).toBeNull();
  });

  it.each<unknown>([undefined, null, 123, {}, []])(
    'a non-string (%j) from a JavaScript caller is not valid and does not throw',
    (value) => {
      expect(isValidBrCode(value as string)).toBe(false);
      expect(parseDepositBrCode(value as string)).toBeNull();
    },
  );

  it('a valid dynamic BR Code reads back, one changed character later it does not', () => {
    const payload = buildDepositBrCode({ operationId, merchantName: 'Acme', merchantCity: 'Recife' });
    expect(parseDepositBrCode(payload)).toEqual({
      url: 'pix.fos-mock.local/qr/v2/3f2c9a1e7b4d4c8e9a0f1d2e3f4a5b6c',
      merchantName: 'ACME',
      merchantCity: 'RECIFE',
    });
    expect(parseDepositBrCode(payload.replace('ACME', 'ACMF'))).toBeNull();
  });
});
