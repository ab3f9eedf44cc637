// A listed record as the JSON it is sent as, written straight from its kept form
// (record-codec.ts, json), for a caller that only sends it (Store.pageToSend). Why: a record
// listed once from a large store was decoded to a deep-frozen object tree, then stringified,
// then let go; the two cost about 4 and 4.6 µs for an operation, most of a random page of a
// million operations. Its place (record-marks.ts) says which row and version it is, so the
// response encoder can ask whether that version passed its check.
import type { Place } from './record-marks';

export class KeptJson {
  constructor(
    /** JSON.stringify of the record as kept when it was listed. */
    readonly json: string,
    /** Where it is kept, and at which version (record-marks.ts: the marks hold while that version does). */
    readonly place: Place,
  ) {}
}
