// Money in decimal arithmetic, never floats (seed: "must be handled with decimal-precision
// arithmetic, never floating point"). Amounts travel as decimal strings at the asset's scale.
import type DecimalBase from 'decimal.js';
import { Decimal } from './decimal';

export { Decimal };

export type AssetScales = Record<string, number>;

/**
 * No balance reaches this: the document's DecimalString has at most 20 integer digits, so a
 * balance of 10^20 or more could not be shown. A move that would reach it is refused (the store).
 */
export const BALANCE_CEILING = new Decimal('1e20');

export function scaleOf(asset: string, scales: AssetScales): number {
  const scale = scales[asset];
  if (scale === undefined) throw new Error(`no scale known for asset ${asset}`);
  return scale;
}

/** Formats at exactly `decimals` places, rounding down (target amounts round down, as the Quote schema says). */
export function atScale(value: DecimalBase.Value, decimals: number, rounding: 'down' | 'up' = 'down'): string {
  // A stored amount is already written so (every answer presents its amounts through here).
  // (Only for a real scale: anything else goes to decimal.js, which refuses it.)
  if (typeof value === 'string' && Number.isInteger(decimals) && decimals >= 0 && isFixedAt(value, decimals)) return value;
  return new Decimal(value).toFixed(decimals, rounding === 'down' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
}

/**
 * Whether `text` is what `toFixed(decimals)` writes for its own value: an optional minus, whole
 * digits without a leading zero, exactly `decimals` fractional digits; never a negative zero
 * (which toFixed writes without its sign).
 */
export function isFixedAt(text: string, decimals: number): boolean {
  const negative = text.charCodeAt(0) === 45;
  const start = negative ? 1 : 0;
  const point = decimals === 0 ? text.length : text.length - decimals - 1;
  if (point <= start || (decimals > 0 && text.charCodeAt(point) !== 46)) return false;
  // A leading zero only as the whole part '0'.
  if (text.charCodeAt(start) === 48 && point - start > 1) return false;
  let nonZero = false;
  for (let i = start; i < text.length; i++) {
    if (i === point) continue;
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
    if (c !== 48) nonZero = true;
  }
  return nonZero || !negative;
}

/** True when the value has no more fractional digits than the scale allows. */
export function fitsScale(value: string, decimals: number): boolean {
  return new Decimal(value).decimalPlaces() <= decimals;
}

export function isPositive(value: string): boolean {
  return new Decimal(value).greaterThan(0);
}

export function amount(value: DecimalBase.Value, asset: string, scales: AssetScales) {
  const decimals = scaleOf(asset, scales);
  return { value: atScale(value, decimals), asset, decimals };
}

export function negate(value: string): string {
  return new Decimal(value).negated().toFixed();
}

export function sum(values: string[]): string {
  return values.reduce((total, v) => total.plus(v), new Decimal(0)).toFixed();
}
