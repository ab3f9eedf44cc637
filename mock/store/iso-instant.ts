// `new Date(ms).toISOString()` for the instants the record codec keeps (1970 to 9999), written
// digit by digit into one reused buffer. Why: an operation holds three or four distinct instants
// and every one is written back as text each time the record is decoded; toISOString took about
// 0.66 µs each (a Date allocated, then formatted by the runtime), a tenth of decoding an
// operation listed for the first time. The calendar is Hinnant's days-to-civil algorithm
// (proleptic Gregorian, as Date's), exact in integers.

import { latin1Text, viewOf } from './buffer-text';

const MS_PER_DAY = 86_400_000;
/** 9999-12-31T23:59:59.999Z: past it toISOString writes a six-digit year with a sign, so Date answers. */
const LAST = 253_402_300_799_999;

/** One buffer, filled by each call: its separators never change, only the digits. */
const chars = Buffer.from('0000-00-00T00:00:00.000Z', 'latin1');
const charsView = viewOf(chars);

/** Each number below 100 as its two digits in one 16-bit number, the first in the low byte (little-endian stores). */
const PAIRS = new Uint16Array(100);
for (let n = 0; n < 100; n++) PAIRS[n] = (48 + ((n / 10) | 0)) | ((48 + (n % 10)) << 8);

/** The ISO-8601 text of `ms` milliseconds since 1970, exactly as Date.prototype.toISOString writes it. */
export function isoInstant(ms: number): string {
  if (!writesInPlace(ms)) return new Date(ms).toISOString();
  writeIsoInstant(ms, charsView, 0);
  const text = latin1Text(chars, 0, 24);
  rememberInstant(text, ms);
  return text;
}

/**
 * The last few instants written here or read by the record codec, as text and ms. Why: a record
 * made now is kept (encoded) a moment after its instants were written, and its answer again
 * (a quote's createdAt and expiresAt: four readings of two texts per quote); the codec read each
 * digit by digit. Compared by `===`: the same string, the usual case, is one comparison.
 */
const KNOWN = 4;
const knownTexts: string[] = new Array<string>(KNOWN).fill('');
const knownMs = new Float64Array(KNOWN);
let nextKnown = 0;

/** Remembers that `text` is the instant `ms` (`isoInstant(ms) === text`, ms such that writesInPlace). */
export function rememberInstant(text: string, ms: number): void {
  knownTexts[nextKnown] = text;
  knownMs[nextKnown] = ms;
  nextKnown = (nextKnown + 1) % KNOWN;
}

/** The ms of `text` when it is one of the instants remembered lately; else undefined. */
export function knownInstantMs(text: string): number | undefined {
  for (let i = 0; i < KNOWN; i++) if (knownTexts[i] === text) return knownMs[i];
  return undefined;
}

/** Whether `writeIsoInstant` can write `ms` (a whole number of ms from 1970 to 9999: 24 chars). */
export function writesInPlace(ms: number): boolean {
  return ms >= 0 && ms <= LAST && Number.isInteger(ms);
}

/**
 * Writes the 24 chars of `isoInstant(ms)` at `at` in the bytes `view` covers (`ms` such that
 * writesInPlace), two and four chars to a store: the record codec's JSON writes instants this way,
 * without a string in between (five in an operation).
 */
export function writeIsoInstant(ms: number, view: DataView, at: number): void {
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  // The date of the day last written, kept: a page's instants are mostly of the same few days.
  if (days !== dateOfDay) writeDate(days);
  view.setUint32(at, dateWords[0]!, true);
  view.setUint32(at + 4, dateWords[1]!, true);
  view.setUint16(at + 8, dateWords[2]!, true);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  view.setUint8(at + 10, 84);
  view.setUint16(at + 11, PAIRS[hour]!, true);
  view.setUint8(at + 13, 58);
  view.setUint16(at + 14, PAIRS[minute]!, true);
  view.setUint8(at + 16, 58);
  view.setUint16(at + 17, PAIRS[second]!, true);
  view.setUint8(at + 19, 46);
  view.setUint8(at + 20, 48 + ((milli / 100) | 0));
  view.setUint16(at + 21, PAIRS[milli % 100]!, true);
  view.setUint8(at + 23, 90);
}

/** `YYYY-MM-DD` of the day `dateOfDay` (days since 1970), set by writeDate, as numbers for little-endian stores of 4, 4 and 2 chars. */
const dateWords = new Uint32Array(3);
let dateOfDay = -1;

function writeDate(days: number): void {
  // Days since 0000-03-01, in 400-year eras of 146,097 days (Hinnant, "chrono-Compatible Low-Level Date Algorithms").
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  // `YYYY`, then `-MM-` (the hyphens, 45, around the month's digits), then `DD`.
  dateWords[0] = PAIRS[(year / 100) | 0]! | (PAIRS[year % 100]! << 16);
  dateWords[1] = 45 | (PAIRS[month]! << 8) | (45 << 24);
  dateWords[2] = PAIRS[day]!;
  dateOfDay = days;
}
