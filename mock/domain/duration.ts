// Durations of the clock control: "250ms", "30s", "5m", "1h30m", "2d" (units in the order
// d h m s ms, whole numbers), a string of digits, or a number: milliseconds.
import { ServiceError } from '../errors/catalogue';

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
const GRAMMAR = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/;

export function parseDuration(value: unknown, field = 'body.by'): number {
  let ms: number | undefined;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string' && /^\d+$/.test(value)) ms = Number(value);
  else if (typeof value === 'string' && value !== '') {
    const match = GRAMMAR.exec(value);
    if (match) {
      const [, d, h, m, s, milli] = match;
      ms = [d, h, m, s, milli].reduce((total, part, i) => total + Number(part ?? 0) * Object.values(UNIT_MS)[i]!, 0);
    }
  }
  if (ms === undefined || !Number.isSafeInteger(ms) || ms < 0) {
    throw new ServiceError('VALIDATION_ERROR', {
      fields: [{ field, message: 'must be a duration such as 250ms, 30s, 5m, 1h30m or 2d, or a whole number of milliseconds' }],
    });
  }
  return ms;
}
