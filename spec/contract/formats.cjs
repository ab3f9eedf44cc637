// The string formats the validators check (ajv-formats' full set), with one fast path: a
// `date-time` in the form the mock writes (Date#toISOString, `YYYY-MM-DDTHH:mm:ss.sssZ`) is read
// digit by digit, where ajv-formats splits it and matches each half against a regular expression. Anything else
// goes to ajv-formats' own check, so the verdict is always ajv-formats': the fast path answers
// only true, and only for text that check accepts (test/spec/formats.test.ts holds both to that).
// An operation in a list carries five date-times: their check was about 2 of the 5 µs a record's
// strict check took (measured on pages of a million operations).
//
// CommonJS and not TypeScript because the validators the build generates (spec/contract/
// standalone.ts) require it at run time, from spec/generated/validators/: it has to be there in
// a fresh clone before any build, and in the published package (package.json "files").
'use strict';
const { fullFormats } = require('ajv-formats/dist/formats');

const ajvDateTime = fullFormats['date-time'];
/** Days per month (February of a common year); RFC 3339 5.7. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Where the separators of `YYYY-MM-DDTHH:mm:ss.sssZ` are, and which. */
const SEPARATORS = [
  [4, 45], // -
  [7, 45], // -
  [10, 84], // T
  [13, 58], // :
  [16, 58], // :
  [19, 46], // .
  [23, 90], // Z
];

/** The value of the decimal digits of `text` from `from` to `to` (exclusive), or -1 when one is not a digit. */
function digits(text, from, to) {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * True for a `YYYY-MM-DDTHH:mm:ss.sssZ` text naming a real day and a time without leap second;
 * false for anything else (which may still be a valid date-time: ask ajv-formats).
 */
function isCanonicalInstant(text) {
  if (text.length !== 24) return false;
  for (const [at, code] of SEPARATORS) if (text.charCodeAt(at) !== code) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS[month - 1] + (month === 2 && leap ? 1 : 0)) return false;
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  // Second 60 (a leap second) is left to ajv-formats, which allows it at 23:59 only.
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && digits(text, 20, 23) >= 0;
}

const dateTime = {
  validate: (text) => isCanonicalInstant(text) || ajvDateTime.validate(text),
  compare: ajvDateTime.compare,
};

/** ajv-formats' full formats, `date-time` with the fast path: the object `code.formats` names in generated validators. */
const formats = { ...fullFormats, 'date-time': dateTime };

module.exports = { formats, isCanonicalInstant };
