// Turns a handler's answer into the bytes sent: the JSON of the body and, when strict responses
// are on, its check against the document (status, headers, body) first.
//
// A stored record is never edited in place (the store replaces it; the memory store freezes what
// it keeps), so the JSON of an object, and the fact that it passed a given check, are kept beside
// the object in WeakMaps (for a record of the memory store's tables, the check as the store's mark
// on its row instead). A page of unchanged records then costs a look-up per item and a check of
// its small envelope, not a validation and a stringify of every item (to keep a list cheap: pre-serialise,
// no per-request work the rules do not need). A changed record is a new object: it is checked
// and serialised afresh, and the old entries go when the old object does. The memory store hands
// out the same objects only for records written or read again lately (mock/store/record-table.ts), so what
// is kept here lives as long as they do: a large store's listed records are not held twice.
//
// Only what can come back is kept: nothing beside an object that is not frozen (a handler's
// answer, built anew for each request, which could also still change), nor beside a record the
// memory store's table handed out once and let go (other frozen values, such as a Redis store's
// reads or a rebuilt idempotency answer, are kept as before). Why: each weak entry costs its insertion and the collector's
// ephemeron work, about as much as the JSON it would save (measured on a page of a million
// operations listed for the first time, where every item is such a record).
import type { OperationContract, ResponseCheck } from '../../spec/contract';
import { unexpectedBody } from '../../spec/contract/operations';
import type { FieldError } from '../../spec/contract/validators';
import { KeptJson } from '../store/kept-json';
import { handedOutAt, hasMarkAt, liveAt, setMarkAt, type Place } from '../store/record-marks';
import type { Kind, Store } from '../store/store';

export interface Encoded {
  /** The body's JSON; undefined for an answer without a body. */
  json?: string;
  /** Where the answer breaks the document (strict mode only); empty when it follows it. */
  violations: FieldError[];
}

type Check = (value: unknown) => ResponseCheck;

interface PageBody {
  data: unknown[];
  [key: string]: unknown;
}

function isPage(body: unknown): body is PageBody {
  return isObject(body) && Array.isArray((body as PageBody).data);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * An object worth keeping something beside: unchangeable, and one that may be handed out again
 * (not a record the store handed out once: record-marks.ts, handedOutOnce). `place` is where the
 * store keeps it (handedOutAt), when the caller has looked it up already.
 */
function comesBack(value: object, place: Place | undefined = handedOutAt(value)): boolean {
  return Object.isFrozen(value) && place?.held !== false;
}

export class ResponseEncoder {
  private readonly json = new WeakMap<object, string>();
  private readonly passed = new WeakMap<Check, WeakSet<object>>();

  encode(op: OperationContract, status: number, headers: Record<string, unknown>, body: unknown, strict: boolean): Encoded {
    const violations = strict ? this.check(op, status, headers, body) : [];
    return { json: body === undefined ? undefined : this.stringify(body), violations };
  }

  /** JSON.stringify, with a page assembled from its items' kept JSON (same text, `data` first). */
  stringify(body: unknown): string {
    if (!isPage(body)) return this.stringifyValue(body);
    const { data, ...rest } = body;
    let items = '';
    for (let i = 0; i < data.length; i++) items += (i === 0 ? '' : ',') + this.stringifyValue(data[i]);
    const tail = JSON.stringify(rest);
    return `{"data":[${items}]${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
  }

  private stringifyValue(value: unknown): string {
    // `undefined` (not valid JSON) stands as null, as JSON.stringify does inside an array.
    if (!isObject(value)) return JSON.stringify(value) ?? 'null';
    // A record the store listed as its JSON (Store.pageToSend): that text is the record's JSON.
    if (value instanceof KeptJson) return value.json;
    let json = this.json.get(value);
    if (json === undefined) {
      json = JSON.stringify(value);
      if (comesBack(value)) this.json.set(value, json);
    }
    return json;
  }

  private check(op: OperationContract, status: number, headers: Record<string, unknown>, body: unknown): FieldError[] {
    const violations = op.checkResponseHead(status, headers);
    const contract = op.responseFor(status);
    if (!contract) return violations;
    if (contract.page && isPage(body)) {
      this.run(contract.page.envelope, body, 'body', violations);
      body.data.forEach((item, i) => this.run(contract.page!.item, item, `body.data.${i}`, violations));
    } else if (contract.check) {
      this.run(contract.check, body, 'body', violations);
    } else if (unexpectedBody(status, body)) {
      violations.push({ field: 'body', message: 'must be empty' });
    }
    return violations;
  }

  /**
   * Runs `check` unless `value` is an object that has passed it before, or a stored record whose
   * kept form has (the store's marks: a record listed again after leaving the memory store's
   * decoded window is a new, equal object); adds what it finds (errors and drift alike).
   */
  private run(check: Check, value: unknown, prefix: string, into: FieldError[]): void {
    if (value instanceof KeptJson) return this.runKept(check, value, prefix, into);
    let passed = this.passed.get(check);
    // Where the store keeps it, looked up once for the three questions below.
    const place = isObject(value) ? handedOutAt(value) : undefined;
    if (isObject(value) && (passed?.has(value) || hasMarkAt(place, check))) return;
    const { errors, drift } = check(value);
    if (errors.length === 0 && drift.length === 0) {
      // The store's mark when the record is the store's; else beside the object, if it can come back.
      if (isObject(value) && !setMarkAt(place, check) && comesBack(value, place)) {
        if (!passed) this.passed.set(check, (passed = new WeakSet()));
        passed.add(value);
      }
      return;
    }
    report(errors, drift, prefix, into);
  }

  /**
   * `run` for a record the store sent as its JSON: skipped when the row's version it was written
   * from passed (the store's mark, put when it was written or first listed); else the JSON is
   * checked as the value it is (JSON.parse of it: what is sent), and the row marked if it passes.
   */
  private runKept(check: Check, kept: KeptJson, prefix: string, into: FieldError[]): void {
    // A row written since the page was read holds another version: its marks are not this one's.
    const place = liveAt(kept.place);
    if (hasMarkAt(place, check)) return;
    const { errors, drift } = check(JSON.parse(kept.json));
    if (errors.length === 0 && drift.length === 0) setMarkAt(place, check);
    else report(errors, drift, prefix, into);
  }
}

/**
 * Has the store check each record of `kind` as it is written with the item check of `op`'s 200
 * page, marking it as the encoder would the first time it listed it (Store.checkWrites): a page
 * of records listed for the first time is then sent as kept, not checked record by record. The
 * answers are the same: a record that does not pass is not marked, and is checked when listed.
 */
export function checkListedWhenWritten(store: Pick<Store, 'checkWrites'>, op: OperationContract, kind: Kind): void {
  const item = op.responseFor(200)?.page?.item;
  if (!item) throw new Error(`${op.operationId}: the document gives its 200 answer no page of items to check`);
  store.checkWrites(kind, item, (record) => {
    const { errors, drift } = item(record);
    return errors.length === 0 && drift.length === 0;
  });
}

function report(errors: FieldError[], drift: FieldError[], prefix: string, into: FieldError[]): void {
  for (const e of [...errors, ...drift]) into.push({ field: e.field ? `${prefix}.${e.field}` : prefix, message: e.message });
}
