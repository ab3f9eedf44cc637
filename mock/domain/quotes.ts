// Quote pricing and the seed's quote rules: a quote belongs to one customer and one account,
// expires, and is consumed by at most one operation.
import { ServiceError } from '../errors/catalogue';
import { Decimal, isFixedAt, scaleOf, type AssetScales } from './money';
import type { QuoteRecord } from './records';

/** An amount is below 10^20: at most 20 digits before the point. */
const MAX_WHOLE_DIGITS = 20;

export interface Rate {
  sourceAsset: string;
  targetAsset: string;
  rate: string;
}

export interface PriceRequest {
  sourceAsset: string;
  targetAsset: string;
  sourceAmount?: string;
  targetAmount?: string;
}

export interface Price {
  sourceAmount: string;
  targetAmount: string;
  rate: string;
}

export function rateFor(sourceAsset: string, targetAsset: string, rates: Rate[]): string {
  // Seed: "the rate (1:1 for same-asset)".
  if (sourceAsset === targetAsset) return '1';
  const found = rates.find((r) => r.sourceAsset === sourceAsset && r.targetAsset === targetAsset);
  if (!found) {
    throw new ServiceError('VALIDATION_ERROR', {
      fields: [{ field: 'body.targetAsset', message: `no rate from ${sourceAsset} to ${targetAsset}` }],
    });
  }
  return found.rate;
}

/**
 * Fixes both amounts. From a source amount, the target is rounded down to the target scale
 * (the Quote schema); from a target amount, the source is rounded up so the customer never pays
 * less than the target is worth.
 */
export function priceQuote(request: PriceRequest, rates: Rate[], scales: AssetScales): Price {
  const rate = rateFor(request.sourceAsset, request.targetAsset, rates);
  const sourceScale = scaleOf(request.sourceAsset, scales);
  const targetScale = scaleOf(request.targetAsset, scales);
  const given = request.sourceAmount !== undefined ? 'sourceAmount' : 'targetAmount';
  const givenScale = given === 'sourceAmount' ? sourceScale : targetScale;
  const text = (request.sourceAmount ?? request.targetAmount) as string;
  // Parsed once; each amount below is rounded as a Decimal and written once. (Fewer Decimals
  // than comparing with 0 and taking abs() make: this runs on every quote.)
  const value = new Decimal(text);
  if (!aboveZero(value)) throw invalid(given, 'must be greater than zero');
  // Written as `!(… <= …)`: a value with no decimal places to count (NaN) fails here, as before.
  if (!(value.decimalPlaces() <= givenScale)) throw invalid(given, `has more than ${givenScale} decimal places`);

  const factor = rateValue(rate);
  const source = given === 'sourceAmount' ? value : value.dividedBy(factor).toDecimalPlaces(sourceScale, Decimal.ROUND_UP);
  const target = given === 'sourceAmount' ? value.times(factor).toDecimalPlaces(targetScale, Decimal.ROUND_DOWN) : value;
  if (!aboveZero(target)) throw invalid(given, 'is too small to buy any of the target asset');
  // The amount given is sent back as written when it is already at its scale (isFixedAt: the text
  // toFixed would write, so no caller can tell; it only saves a Decimal written out).
  // Stryker disable next-line ConditionalExpression: equivalent, see above
  const sourceAmount = source === value && isFixedAt(text, sourceScale) ? text : source.toFixed(sourceScale);
  // Stryker disable next-line ConditionalExpression: equivalent, see above
  const targetAmount = target === value && isFixedAt(text, targetScale) ? text : target.toFixed(targetScale);
  // Amounts travel as decimal strings of at most 20 integer digits (the document's pattern). Both
  // are exact at their scale here, so their text's whole digits are the value's; a rate of 0 (or
  // one written as Infinity) in the fixtures makes an amount infinite, which is past any bound.
  if (
    !source.isFinite() ||
    !target.isFinite() ||
    wholeDigits(sourceAmount, sourceScale) > MAX_WHOLE_DIGITS ||
    wholeDigits(targetAmount, targetScale) > MAX_WHOLE_DIGITS
  ) {
    throw invalid(given, 'is too large: the converted amount would exceed 20 integer digits');
  }
  return { sourceAmount, targetAmount, rate };
}

/** `value > 0` without the Decimal that comparing with 0 makes (NaN is neither positive nor zero: false, as comparing it is). */
function aboveZero(value: Decimal): boolean {
  return value.isPositive() && !value.isZero();
}

/**
 * The digits before the point of a finite amount written by toFixed(scale): no exponent, `scale`
 * decimals after a point, a minus sign first when negative (a negative rate in the fixtures).
 */
function wholeDigits(text: string, scale: number): number {
  return text.length - (scale > 0 ? scale + 1 : 0) - (text.charCodeAt(0) === 45 ? 1 : 0);
}

/** Each rate's Decimal, parsed once (a Decimal never changes); the rate table is a handful of rows. */
const rateValues = new Map<string, Decimal>();
const MAX_RATE_VALUES = 1024;

// A cache no caller can tell from parsing each time: its mutants are equivalent.
function rateValue(rate: string): Decimal {
  let value = rateValues.get(rate);
  // Stryker disable next-line ConditionalExpression: equivalent, see above
  if (value === undefined) {
    // Bounded whatever the fixtures hold: past the bound, start again.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
    if (rateValues.size >= MAX_RATE_VALUES) rateValues.clear();
    rateValues.set(rate, (value = new Decimal(rate)));
  }
  return value;
}

function invalid(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', { fields: [{ field: `body.${field}`, message }] });
}

export type QuoteStatus = 'OPEN' | 'CONSUMED' | 'EXPIRED';

export function quoteStatus(quote: QuoteRecord, now: number): QuoteStatus {
  if (quote.operationId !== null) return 'CONSUMED';
  return now >= Date.parse(quote.expiresAt) ? 'EXPIRED' : 'OPEN';
}

/**
 * Seed: the quote "belongs to the same customer, has not expired and has not been consumed by
 * another operation", and the account "must match the quote's account". Another customer's
 * quote is reported exactly as an unknown one (no existence leak).
 */
export function assertQuoteUsable(quote: QuoteRecord | undefined, customerId: string, accountId: string, now: number): QuoteRecord {
  if (!quote || quote.customerId !== customerId || quote.internal) throw new ServiceError('QUOTE_NOT_FOUND');
  if (quote.accountId !== accountId) throw new ServiceError('QUOTE_ACCOUNT_MISMATCH', { quoteAccountId: quote.accountId });
  const status = quoteStatus(quote, now);
  if (status === 'CONSUMED') throw new ServiceError('QUOTE_ALREADY_CONSUMED');
  if (status === 'EXPIRED') throw new ServiceError('QUOTE_EXPIRED', { expiresAt: quote.expiresAt });
  return quote;
}
