// Whether an answer of the service API conforms to the API document (spec/openapi.yaml): the
// operation is found from the method and path as the mock's own route table finds it, and the
// answer is checked by that operation's contract. Only breaks of the document as written count:
// drift (a value or field the document does not know yet) is how a real service grows, not a break.
// The contract and the route table are built on the first check and kept, so a caller checking
// every answer (explore) pays for them once.
import { loadContract, type FieldError, type OperationContract } from '../../spec/contract';
import { RouteTable } from '../http/route-table';
import type { HttpAnswer } from './http';

/** Errors named at most; the rest are counted (as describeError does for a refusal's fields). */
const ERRORS_SHOWN = 5;

let routes: RouteTable<null> | undefined;

function routeTable(): RouteTable<null> {
  // The validators the build generated, when they match the document; compiled now otherwise.
  return (routes ??= new RouteTable(loadContract(undefined, { precompiled: true }).operations.map((op) => ({ op, target: null }))));
}

function operationOf(method: string, path: string): OperationContract | undefined {
  return routeTable().match(method, path)?.op;
}

/**
 * Why an answer to `METHOD path` breaks spec/openapi.yaml, in one message starting with
 * `conforms:` (the first few errors, field and message, one a line); undefined when it conforms.
 * `path` is the one sent (`/v1/operations/3f0c…?x=1`), matched against the document's templates.
 */
export function conformanceFailure(
  method: string,
  path: string,
  answer: Pick<HttpAnswer, 'status' | 'headers' | 'body'>,
): string | undefined {
  const found = conformanceErrors(method, path, answer);
  const [bare = path] = path.split('?');
  if (!found) return `conforms: no operation of the document is ${method.toUpperCase()} ${bare}`;
  const { op, errors } = found;
  if (errors.length === 0) return undefined;
  const lines = errors.slice(0, ERRORS_SHOWN).map((e) => `\n  ${e.field}: ${e.message}`);
  if (errors.length > ERRORS_SHOWN) lines.push(`\n  (and ${errors.length - ERRORS_SHOWN} more)`);
  return `conforms: the ${answer.status} answer breaks the document (${op.operationId})${lines.join('')}`;
}

/**
 * The operation `METHOD path` is and every break of the document in its answer (`status`,
 * `header.<name>`, `body.<path>`); undefined when no operation of the document is that call.
 */
export function conformanceErrors(
  method: string,
  path: string,
  answer: Pick<HttpAnswer, 'status' | 'headers' | 'body'>,
): { op: OperationContract; errors: FieldError[] } | undefined {
  // The query string is no part of what names the operation.
  const [bare = path] = path.split('?');
  const op = operationOf(method.toUpperCase(), bare);
  return op ? { op, errors: op.checkResponse(answer.status, answer.headers, answer.body).errors } : undefined;
}
