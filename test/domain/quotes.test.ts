import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import { assertQuoteUsable, priceQuote, quoteStatus, rateFor, type Rate } from '../../mock/domain/quotes';
import type { QuoteRecord } from '../../mock/domain/records';

const scales = { BRL: 2, USDT: 6 };
const rates: Rate[] = [
  { sourceAsset: 'BRL', targetAsset: 'USDT', rate: '0.185' },
  { sourceAsset: 'USDT', targetAsset: 'BRL', rate: '5.4321' },
];

const CUSTOMER = 'c0ffee00-0000-4000-8000-000000000001';
const OTHER_CUSTOMER = 'c0ffee00-0000-4000-8000-000000000002';
const ACCOUNT = 'acc00000-0000-4000-8000-000000000001';
const OTHER_ACCOUNT = 'acc00000-0000-4000-8000-000000000002';
const CREATED = Date.parse('2025-03-10T14:30:00.000Z');
const EXPIRES = Date.parse('2025-03-10T14:30:30.000Z');

function quote(overrides: Partial<QuoteRecord> = {}): QuoteRecord {
  return {
    id: 'q0000000-0000-4000-8000-000000000001',
    customerId: CUSTOMER,
    accountId: ACCOUNT,
    sourceAsset: 'BRL',
    targetAsset: 'USDT',
    sourceAmount: '100.00',
    targetAmount: '18.500000',
    rate: '0.185',
    createdAt: new Date(CREATED).toISOString(),
    expiresAt: new Date(EXPIRES).toISOString(),
    operationId: null,
    internal: false,
    ...overrides,
  };
}

/** The ServiceError a call throws (fails the test when it throws nothing or something else). */
function caught(call: () => unknown): ServiceError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a ServiceError, nothing was thrown');
}

function rejectedField(call: () => unknown): string {
  const error = caught(call);
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(error.status).toBe(400);
  const fields = (error.details as { fields: Array<{ field: string; message: string }> }).fields;
  expect(fields).toHaveLength(1);
  return (fields[0] as { field: string }).field;
}

describe('pricing a quote from a source amount', () => {
  it('when 100.00 BRL is priced at 0.185, then the target is exactly 18.500000 USDT', () => {
    expect(priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '100.00' }, rates, scales)).toEqual({
      sourceAmount: '100.00',
      targetAmount: '18.500000',
      rate: '0.185',
    });
  });

  it('when 0.01 BRL is priced at 0.185, then the target is 0.001850 USDT', () => {
    const price = priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '0.01' }, rates, scales);
    expect(price.targetAmount).toBe('0.001850');
  });

  it('when a whole source amount is sent, then it is returned at the source scale', () => {
    const price = priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '100' }, rates, scales);
    expect(price.sourceAmount).toBe('100.00');
  });

  it('when the product has more digits than the target scale, then the target is rounded down', () => {
    // 1.234567 × 5.4321 = 6.7062914007: rounding to nearest would give 6.71.
    const price = priceQuote({ sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '1.234567' }, rates, scales);
    expect(price).toEqual({ sourceAmount: '1.234567', targetAmount: '6.70', rate: '5.4321' });
  });

  it('when the rate has more digits than the target scale, then the target is truncated, not rounded', () => {
    const sevenDigits: Rate[] = [{ sourceAsset: 'BRL', targetAsset: 'USDT', rate: '0.1851239' }];
    const price = priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.00' }, sevenDigits, scales);
    expect(price.targetAmount).toBe('0.185123');
  });
});

describe('pricing a quote from a target amount', () => {
  it('when the target divides exactly, then the source is that exact amount', () => {
    const price = priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '18.5' }, rates, scales);
    expect(price).toEqual({ sourceAmount: '100.00', targetAmount: '18.500000', rate: '0.185' });
  });

  it('when the quotient has more digits than the source scale, then the source is rounded up', () => {
    // 2 / 0.185 = 10.8108…: rounding to nearest would give 10.81, which buys only 1.99985 USDT.
    const price = priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '2.000000' }, rates, scales);
    expect(price).toEqual({ sourceAmount: '10.82', targetAmount: '2.000000', rate: '0.185' });
  });

  it('when a source of six decimals is derived, then it is rounded up at the sixth place', () => {
    // 7 / 5.4321 = 1.288636070765…
    const price = priceQuote({ sourceAsset: 'USDT', targetAsset: 'BRL', targetAmount: '7.00' }, rates, scales);
    expect(price).toEqual({ sourceAmount: '1.288637', targetAmount: '7.00', rate: '5.4321' });
  });
});

describe('same-asset quotes', () => {
  it('when source and target assets are the same, then the rate is 1 and both amounts are equal', () => {
    expect(priceQuote({ sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '50' }, [], scales)).toEqual({
      sourceAmount: '50.00',
      targetAmount: '50.00',
      rate: '1',
    });
    expect(priceQuote({ sourceAsset: 'USDT', targetAsset: 'USDT', targetAmount: '0.000001' }, [], scales)).toEqual({
      sourceAmount: '0.000001',
      targetAmount: '0.000001',
      rate: '1',
    });
  });

  it('when the rate table is asked for a same-asset pair, then it answers 1 without a table entry', () => {
    expect(rateFor('USDT', 'USDT', [])).toBe('1');
  });
});

describe('amounts a quote refuses', () => {
  it.each(['0', '0.00', '-1.00'])('a source amount of %s is rejected with VALIDATION_ERROR naming body.sourceAmount', (value) => {
    expect(rejectedField(() => priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: value }, rates, scales))).toBe(
      'body.sourceAmount',
    );
  });

  it('a zero target amount is rejected with VALIDATION_ERROR naming body.targetAmount', () => {
    expect(rejectedField(() => priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '0' }, rates, scales))).toBe(
      'body.targetAmount',
    );
  });

  it('a BRL source amount with three decimals is rejected with VALIDATION_ERROR naming body.sourceAmount', () => {
    expect(rejectedField(() => priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.001' }, rates, scales))).toBe(
      'body.sourceAmount',
    );
  });

  it('a USDT target amount with seven decimals is rejected with VALIDATION_ERROR naming body.targetAmount', () => {
    expect(rejectedField(() => priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', targetAmount: '1.0000001' }, rates, scales))).toBe(
      'body.targetAmount',
    );
  });

  it('a source amount too small to buy one unit of the target is rejected naming body.sourceAmount', () => {
    // 0.000001 USDT × 5.4321 = 0.0000054321 BRL, which is 0.00 at the BRL scale.
    expect(rejectedField(() => priceQuote({ sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '0.000001' }, rates, scales))).toBe(
      'body.sourceAmount',
    );
  });

  it('the smallest source amount that buys one unit of the target is accepted', () => {
    // 0.001840 × 5.4321 = 0.00999506…: still 0.00 BRL; 0.001841 × 5.4321 = 0.01000049…: 0.01 BRL.
    expect(rejectedField(() => priceQuote({ sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '0.001840' }, rates, scales))).toBe(
      'body.sourceAmount',
    );
    expect(priceQuote({ sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '0.001841' }, rates, scales).targetAmount).toBe('0.01');
  });

  it('a pair with no rate is rejected with VALIDATION_ERROR naming body.targetAsset', () => {
    const noRate: Rate[] = [];
    expect(rejectedField(() => priceQuote({ sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.00' }, noRate, scales))).toBe(
      'body.targetAsset',
    );
  });
});

describe('quote status', () => {
  it('a fresh quote one millisecond before its expiry is OPEN', () => {
    expect(quoteStatus(quote(), EXPIRES - 1)).toBe('OPEN');
  });

  it('a quote is EXPIRED exactly at expiresAt', () => {
    expect(quoteStatus(quote(), EXPIRES)).toBe('EXPIRED');
  });

  it('a consumed quote is CONSUMED, even after it would have expired', () => {
    const used = quote({ operationId: 'op-1' });
    expect(quoteStatus(used, CREATED)).toBe('CONSUMED');
    expect(quoteStatus(used, EXPIRES + 60_000)).toBe('CONSUMED');
  });
});

describe('using a quote for an operation', () => {
  it('an open quote of the same customer and account is usable and returned as is', () => {
    const q = quote();
    expect(assertQuoteUsable(q, CUSTOMER, ACCOUNT, CREATED)).toBe(q);
  });

  it('an unknown quote is rejected with QUOTE_NOT_FOUND (422)', () => {
    const error = caught(() => assertQuoteUsable(undefined, CUSTOMER, ACCOUNT, CREATED));
    expect(error.code).toBe('QUOTE_NOT_FOUND');
    expect(error.status).toBe(422);
  });

  it("another customer's quote is rejected exactly like an unknown one, with no details", () => {
    const error = caught(() => assertQuoteUsable(quote({ customerId: OTHER_CUSTOMER }), CUSTOMER, ACCOUNT, CREATED));
    expect(error.code).toBe('QUOTE_NOT_FOUND');
    expect(error.details).toBeUndefined();
  });

  it("another customer's quote for another account still answers QUOTE_NOT_FOUND, not a mismatch", () => {
    const error = caught(() =>
      assertQuoteUsable(quote({ customerId: OTHER_CUSTOMER, accountId: OTHER_ACCOUNT }), CUSTOMER, ACCOUNT, CREATED),
    );
    expect(error.code).toBe('QUOTE_NOT_FOUND');
  });

  it('an internal quote made for a transfer is rejected with QUOTE_NOT_FOUND', () => {
    expect(caught(() => assertQuoteUsable(quote({ internal: true }), CUSTOMER, ACCOUNT, CREATED)).code).toBe('QUOTE_NOT_FOUND');
  });

  it("a quote for another of the customer's accounts is rejected with QUOTE_ACCOUNT_MISMATCH naming the quote's account", () => {
    const error = caught(() => assertQuoteUsable(quote({ accountId: OTHER_ACCOUNT }), CUSTOMER, ACCOUNT, CREATED));
    expect(error.code).toBe('QUOTE_ACCOUNT_MISMATCH');
    expect(error.status).toBe(422);
    expect(error.details).toEqual({ quoteAccountId: OTHER_ACCOUNT });
  });

  it('a quote used twice is rejected with QUOTE_ALREADY_CONSUMED (409)', () => {
    const error = caught(() => assertQuoteUsable(quote({ operationId: 'op-1' }), CUSTOMER, ACCOUNT, CREATED));
    expect(error.code).toBe('QUOTE_ALREADY_CONSUMED');
    expect(error.status).toBe(409);
  });

  it('a quote used exactly at expiresAt is rejected with QUOTE_EXPIRED naming the expiry', () => {
    const q = quote();
    const error = caught(() => assertQuoteUsable(q, CUSTOMER, ACCOUNT, EXPIRES));
    expect(error.code).toBe('QUOTE_EXPIRED');
    expect(error.status).toBe(422);
    expect(error.details).toEqual({ expiresAt: q.expiresAt });
  });

  it('a quote used one millisecond before expiresAt is still accepted', () => {
    expect(() => assertQuoteUsable(quote(), CUSTOMER, ACCOUNT, EXPIRES - 1)).not.toThrow();
  });
});
