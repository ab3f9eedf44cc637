// The decimal type money is kept and computed in, never floats (seed: amounts "must be handled
// with decimal-precision arithmetic, never floating point"). 60 significant digits hold any sum
// of amounts of at most 20 integer digits and the largest asset scale exactly; the store keeps
// balances in it and the domain's money rules compute with it.
import DecimalBase from 'decimal.js';

export const Decimal = DecimalBase.clone({ precision: 60, rounding: DecimalBase.ROUND_DOWN });
export type Decimal = InstanceType<typeof Decimal>;
