// Strict readers for typed literals (integers, RFC 3339 date-times), shared by the parser and the evaluator.

const INTEGER = /^-?\d+$/;

/** The integer denoted by `text`, or undefined if it is not an integer literal or not a safe integer. */
export function parseIntegerLiteral(text: string): number | undefined {
  if (!INTEGER.test(text)) return undefined;
  const n = Number(text);
  // `+ 0` turns -0 into 0 so "-0" and "0" produce identical trees.
  return Number.isSafeInteger(n) ? n + 0 : undefined;
}

// RFC 3339 section 5.6 date-time: full date, 'T', full time, mandatory 'Z' or numeric offset.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/**
 * Epoch milliseconds of an RFC 3339 date-time, or undefined if `text` is not one.
 * Fractions beyond milliseconds are truncated; leap seconds (:60) are rejected because
 * epoch time cannot represent them.
 */
export function parseDateTime(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = m[7];
  const sign = m[8];
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;

  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  // setUTCFullYear rather than Date.UTC, which would map years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return date.getTime() - offset * 60_000;
}
