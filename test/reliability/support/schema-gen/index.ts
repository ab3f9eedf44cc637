// fast-check arbitraries derived from the API document's JSON schemas: "valid-ish" values (the
// schema's types, enums, x-extensible-enum, formats, required fields and oneOf branches, with
// real ids from the running mock where a uuid names an account, quote, beneficiary...) and
// deliberately broken ones (wrong types, missing required fields, 100 KB strings, unicode with
// lone surrogates and RTL marks, depth-1000 nesting, numbers where decimal strings belong,
// negative and over-scale amounts, extra fields, arrays for objects, null anywhere).
//
// types.ts: what the generators are given (real ids, known-bug switches); valid.ts: SchemaGen,
// the valid-ish values; broken.ts: broken values, body mutations, non-JSON bodies; requests.ts:
// path segments, query strings, headers.
export type { KnownBugs, Pools } from './types';
export { SchemaGen } from './valid';
export { BAD_AMOUNTS, HUGE_STRING, mutate, mutation, nastyValue, nested, RAW_BODIES, UNICODE_SAMPLES, type Mutation } from './broken';
export { filterExpression, headerChoice, mangledSegment, pct, queryString, type HeaderChoice } from './requests';
