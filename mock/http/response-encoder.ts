// Turns a handler's answer into the bytes sent: the JSON of the body as UTF-8 and, when strict
// responses are on, its check against the document (status, headers, body) first.
//
// A stored record is never edited in place (the store replaces it, and the memory store freezes
// what it keeps), so the JSON bytes of a frozen object, and the fact that it passed a given check,
// are kept beside the object in WeakMaps. A page of unchanged records then costs a look-up per item,
// a copy of their bytes and a check of its small envelope, not a validation and a stringify of every
// item. A changed record is a new object: it is checked and serialised afresh, and the old entries
// go when the old object does. Nothing is kept beside an object that is not frozen (a handler's
// answer, built anew for each request, which could still change).
//
// Bytes, not text: a page written as a string is measured once for its Content-Length and encoded
// again when the socket writes it, which for a 19 KB page of accounts (names with accents make it a
// two-byte string) cost about a third of the request (decision 0024).
import type { OperationContract, ResponseCheck } from '../../spec/contract';
import { unexpectedBody } from '../../spec/contract/operations';
import type { FieldError } from '../../spec/contract/validators';

export interface Encoded {
  /** The body's JSON in UTF-8; undefined for an answer without a body. */
  json?: Buffer;
  /** Where the answer breaks the document (strict mode only); empty when it follows it. */
  violations: FieldError[];
}

type Check = (value: unknown) => ResponseCheck;

const PAGE_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const PAGE_CLOSE = Buffer.from(']}');

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

export class ResponseEncoder {
  private readonly json = new WeakMap<object, Buffer>();
  private readonly passed = new WeakMap<Check, WeakSet<object>>();

  encode(op: OperationContract, status: number, headers: Record<string, unknown>, body: unknown, strict: boolean): Encoded {
    const violations = strict ? this.check(op, status, headers, body) : [];
    return { json: body === undefined ? undefined : this.serialise(body), violations };
  }

  /** JSON.stringify's text in UTF-8, with a page assembled from its items' kept bytes (same text, `data` first). */
  serialise(body: unknown): Buffer {
    if (!isPage(body)) return this.valueBytes(body);
    const { data, ...rest } = body;
    const parts: Buffer[] = [PAGE_OPEN];
    for (let i = 0; i < data.length; i++) {
      if (i > 0) parts.push(COMMA);
      parts.push(this.valueBytes(data[i]));
    }
    const tail = JSON.stringify(rest);
    parts.push(tail === '{}' ? PAGE_CLOSE : Buffer.from(`],${tail.slice(1)}`));
    return Buffer.concat(parts);
  }

  /** A value's JSON bytes; a frozen object's are kept and shared, so no caller may write into them. */
  private valueBytes(value: unknown): Buffer {
    // `undefined` (not valid JSON) stands as null, as JSON.stringify does inside an array.
    if (!isObject(value)) return Buffer.from(JSON.stringify(value) ?? 'null');
    let json = this.json.get(value);
    if (json === undefined) {
      json = Buffer.from(JSON.stringify(value));
      if (Object.isFrozen(value)) this.json.set(value, json);
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

  /** Runs `check` unless `value` is a frozen object that has passed it before; adds what it finds (errors and drift alike). */
  private run(check: Check, value: unknown, prefix: string, into: FieldError[]): void {
    const kept = isObject(value) && Object.isFrozen(value);
    let passed = this.passed.get(check);
    if (kept && passed?.has(value)) return;
    const { errors, drift } = check(value);
    if (errors.length === 0 && drift.length === 0) {
      if (kept) {
        if (!passed) this.passed.set(check, (passed = new WeakSet()));
        passed.add(value);
      }
      return;
    }
    report(errors, drift, prefix, into);
  }
}

function report(errors: FieldError[], drift: FieldError[], prefix: string, into: FieldError[]): void {
  for (const e of [...errors, ...drift]) into.push({ field: e.field ? `${prefix}.${e.field}` : prefix, message: e.message });
}
