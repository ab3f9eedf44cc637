// Quote pricing rules beyond the happy path: the rate is the one of the exact pair asked for,
// each rejected amount names its field with a message saying why, the scale checked is the one
// of the asset whose amount was given, and amounts keep to at most 20 integer digits.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Decimal } from '../../mock/domain/money';
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

  it('an asset of scale 0 (no decimals written) keeps to 20 digits too', () => {
    const whole = { JPY: 0, USDT: 6 };
    const yen: Rate[] = [{ sourceAsset: 'USDT', targetAsset: 'JPY', rate: '150' }];
    const twenty = '99999999999999999999';
    expect(priceQuote({ sourceAsset: 'JPY', targetAsset: 'JPY', sourceAmount: twenty }, [], whole)).toEqual({
      sourceAmount: twenty,
      targetAmount: twenty,
      rate: '1',
    });
    expect(fieldError(() => priceQuote({ sourceAsset: 'JPY', targetAsset: 'JPY', sourceAmount: `1${'0'.repeat(20)}` }, [], whole))).toEqual(
      {
        field: 'body.sourceAmount',
        message: tooLarge,
      },
    );
    // 700000000000000000 USDT at 150 is 1.05 × 10^20 JPY: 21 digits.
    expect(
      fieldError(() => priceQuote({ sourceAsset: 'USDT', targetAsset: 'JPY', sourceAmount: '700000000000000000' }, yen, whole)),
    ).toEqual({
      field: 'body.sourceAmount',
      message: tooLarge,
    });
    expect(priceQuote({ sourceAsset: 'USDT', targetAsset: 'JPY', sourceAmount: '600000000000000000' }, yen, whole).targetAmount).toBe(
      '90000000000000000000',
    );
  });

  it('a rate of 0 or Infinity in the fixtures makes the converted amount too large, never an amount written "Infinity"', () => {
    const broken = (rate: string): Rate[] => [{ sourceAsset: 'BRL', targetAsset: 'USDT', rate }];
    expect(fieldError(() => priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '1.00' }, broken('0'), scales))).toEqual({
      field: 'body.targetAmount',
      message: tooLarge,
    });
    expect(
      fieldError(() => priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.00' }, broken('Infinity'), scales)),
    ).toEqual({
      field: 'body.sourceAmount',
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

describe('any amount the document allows is priced as decimal arithmetic says', () => {
  /**
   * The pricing rules written plainly: the given amount at its scale, the other converted at the
   * pair's rate and rounded against the customer at its scale, both above zero and under 10^20.
   */
  function expected(request: PriceRequest): { price: object } | { message: string } {
    const given = request.sourceAmount !== undefined ? 'sourceAmount' : 'targetAmount';
    const value = new Decimal((request.sourceAmount ?? request.targetAmount) as string);
    const sourceScale = scales[request.sourceAsset as keyof typeof scales];
    const targetScale = scales[request.targetAsset as keyof typeof scales];
    if (!value.greaterThan(0)) return { message: 'must be greater than zero' };
    const givenScale = given === 'sourceAmount' ? sourceScale : targetScale;
    if (value.decimalPlaces() > givenScale) return { message: `has more than ${givenScale} decimal places` };
    const rate = rateFor(request.sourceAsset, request.targetAsset, rates);
    const source = given === 'sourceAmount' ? value : value.dividedBy(rate).toDecimalPlaces(sourceScale, Decimal.ROUND_UP);
    const target = given === 'sourceAmount' ? value.times(rate).toDecimalPlaces(targetScale, Decimal.ROUND_DOWN) : value;
    if (!target.greaterThan(0)) return { message: 'is too small to buy any of the target asset' };
    const limit = new Decimal(10).pow(20);
    if (source.greaterThanOrEqualTo(limit) || target.greaterThanOrEqualTo(limit)) {
      return { message: 'is too large: the converted amount would exceed 20 integer digits' };
    }
    return { price: { sourceAmount: source.toFixed(sourceScale), targetAmount: target.toFixed(targetScale), rate } };
  }

  /** A DecimalString of the document (up to 20 whole digits, up to 18 decimals), written any way it allows. */
  const amountText = fc
    .tuple(
      fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,19}$/)),
      fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }),
    )
    .map(([whole, decimals]) => (decimals === undefined ? whole : `${whole}.${decimals}`));
  const pair = fc.constantFrom(
    ...rates.map((r) => [r.sourceAsset, r.targetAsset] as const),
    ['BRL', 'BRL'] as const,
    ['USDT', 'USDT'] as const,
  );

  it("the price, or the reason it is refused, is the plain rules' for every pair, amount and side", () => {
    fc.assert(
      fc.property(pair, amountText, fc.boolean(), ([sourceAsset, targetAsset], text, fromSource) => {
        const request: PriceRequest = fromSource
          ? { sourceAsset, targetAsset, sourceAmount: text }
          : { sourceAsset, targetAsset, targetAmount: text };
        const want = expected(request);
        if ('price' in want) {
          expect(priceQuote(request, rates, scales)).toEqual(want.price);
        } else {
          expect(fieldError(price(request))).toEqual({
            field: `body.${fromSource ? 'sourceAmount' : 'targetAmount'}`,
            message: want.message,
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('an amount given at its scale is sent back as it was written; any other is written at the scale', () => {
    expect(priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '7.50' }, rates, scales).sourceAmount).toBe('7.50');
    expect(priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '7.5' }, rates, scales).sourceAmount).toBe('7.50');
    expect(priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '1.000000' }, rates, scales).targetAmount).toBe('1.000000');
    expect(priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '1' }, rates, scales).targetAmount).toBe('1.000000');
  });
});
