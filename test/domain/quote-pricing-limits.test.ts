// Quote pricing rules beyond the happy path: the rate is the one of the exact pair asked for,
// each rejected amount names its field with a message saying why, the scale checked is the one
// of the asset whose amount was given, and amounts keep to at most 20 integer digits.
import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import { priceQuote, rateFor, type PriceRequest, type Rate } from '../../mock/domain/quotes';

const scales = { BRL: 2, USDT: 6, EUR: 2 };
const rates: Rate[] = [
  { sourceAsset: 'USDT', targetAsset: 'BRL', rate: '5.4321' },
  { sourceAsset: 'BRL', targetAsset: 'USDT', rate: '0.185' },
  { sourceAsset: 'BRL', targetAsset: 'EUR', rate: '0.17' },
  { sourceAsset: 'EUR', targetAsset: 'USDT', rate: '1.08' },
];

/** The single field error of a VALIDATION_ERROR thrown by the call. */
function fieldError(call: () => unknown): { field: string; message: string } {
  let error: unknown;
  try {
    call();
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(ServiceError);
  const serviceError = error as ServiceError;
  expect(serviceError.code).toBe('VALIDATION_ERROR');
  expect(serviceError.status).toBe(400);
  const fields = (serviceError.details as { fields: Array<{ field: string; message: string }> }).fields;
  expect(fields).toHaveLength(1);
  return fields[0] as { field: string; message: string };
}

const price = (request: PriceRequest) => () => priceQuote(request, rates, scales);

describe('the rate of a pair', () => {
  it('is the entry with both the source and the target asked for, wherever it is in the table', () => {
    expect(rateFor('BRL', 'EUR', rates)).toBe('0.17');
    expect(rateFor('BRL', 'USDT', rates)).toBe('0.185');
    expect(rateFor('EUR', 'USDT', rates)).toBe('1.08');
    expect(rateFor('USDT', 'BRL', rates)).toBe('5.4321');
  });

  it('is missing when only the source or only the target has an entry, and the error names the pair', () => {
    expect(fieldError(() => rateFor('EUR', 'BRL', rates))).toEqual({ field: 'body.targetAsset', message: 'no rate from EUR to BRL' });
    expect(fieldError(() => rateFor('USDT', 'EUR', rates))).toEqual({ field: 'body.targetAsset', message: 'no rate from USDT to EUR' });
  });
});

describe('a rejected amount says why', () => {
  it.each(['0', '0.00', '-1.00'])('a source amount of %s must be greater than zero', (sourceAmount) => {
    expect(fieldError(price({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount }))).toEqual({
      field: 'body.sourceAmount',
      message: 'must be greater than zero',
    });
  });

  it('a target amount is checked against the target scale, not the source scale', () => {
    // 1.123 BRL has three decimals: BRL has two, even though the USDT source would allow six.
    expect(fieldError(price({ sourceAsset: 'USDT', targetAsset: 'BRL', targetAmount: '1.123' }))).toEqual({
      field: 'body.targetAmount',
      message: 'has more than 2 decimal places',
    });
    expect(fieldError(price({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '1.1234567' }))).toEqual({
      field: 'body.targetAmount',
      message: 'has more than 6 decimal places',
    });
  });

  it('a source amount is checked against the source scale', () => {
    expect(fieldError(price({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.001' }))).toEqual({
      field: 'body.sourceAmount',
      message: 'has more than 2 decimal places',
    });
  });

  it('a source amount too small to buy any target says so', () => {
    // 0.01 BRL at 0.17 is 0.0017 EUR, which is 0.00 at the EUR scale.
    expect(fieldError(price({ sourceAsset: 'BRL', targetAsset: 'EUR', sourceAmount: '0.01' }))).toEqual({
      field: 'body.sourceAmount',
      message: 'is too small to buy any of the target asset',
    });
  });
});

describe('amounts have at most 20 integer digits', () => {
  const tooLarge = 'is too large: the converted amount would exceed 20 integer digits';

  it('a 20-digit source whose converted target stays under 10^20 is priced', () => {
    expect(priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '99999999999999999999.99' }, rates, scales)).toEqual({
      sourceAmount: '99999999999999999999.99',
      targetAmount: '18499999999999999999.998150',
      rate: '0.185',
    });
  });

  it('a source whose converted target reaches 10^20 is rejected, naming the source', () => {
    expect(fieldError(price({ sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '20000000000000000000' }))).toEqual({
      field: 'body.sourceAmount',
      message: tooLarge,
    });
  });

  it('a target whose derived source reaches 10^20 is rejected, naming the target', () => {
    expect(fieldError(price({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '20000000000000000000' }))).toEqual({
      field: 'body.targetAmount',
      message: tooLarge,
    });
  });

  it('a given amount of 10^20 itself is rejected even at rate 1', () => {
    expect(fieldError(price({ sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '100000000000000000000' }))).toEqual({
      field: 'body.sourceAmount',
      message: tooLarge,
    });
  });
});
