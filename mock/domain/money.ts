// Money in decimal arithmetic, never floats (seed: "must be handled with decimal-precision
// arithmetic, never floating point"). Amounts travel as decimal strings at the asset's scale.
import type DecimalBase from 'decimal.js';
import { Decimal } from '../store/decimal';

export { Decimal };

export type AssetScales = Record<string, number>;

export function scaleOf(asset: string, scales: AssetScales): number {
  const scale = scales[asset];
  if (scale === undefined) throw new Error(`no scale known for asset ${asset}`);
  return scale;
}

/** Formats at exactly `decimals` places, rounding down (target amounts round down, as the Quote schema says). */
export function atScale(value: DecimalBase.Value, decimals: number, rounding: 'down' | 'up' = 'down'): string {
  return new Decimal(value).toFixed(decimals, rounding === 'down' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
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
