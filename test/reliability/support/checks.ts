// What every answer of the mock must be, whatever was asked: never a 5xx, never a stack trace,
// always an X-Request-Id uuid; an error is the document's Error body; a success is exactly what
// the document says (errors and drift empty, the mock's own strict standard).
import type { Contract, OperationContract } from '../../../spec/contract';
import type { Answer } from './http-client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A V8 stack frame, a source path or a module path: what a leaked stack trace looks like. */
export const STACK = /\s+at [^\n]*:\d+:\d+\)?\s*$|\bat (?:async )?[\w.<>]+ \(|node_modules\/|\.[jt]s:\d+:\d+/m;

export function answerProblems(contract: Contract, op: OperationContract | undefined, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  // Only errors: a success may echo the caller's own strings back.
  if (answer.status >= 400 && STACK.test(answer.text)) problems.push('the body looks like a stack trace or names source files');
  const requestId = answer.headers['x-request-id'];
  if (typeof requestId !== 'string' || !UUID.test(requestId)) problems.push(`X-Request-Id is ${JSON.stringify(requestId)}, not a uuid`);
  if (answer.status >= 400) {
    const body = answer.body as { code?: unknown; message?: unknown } | undefined;
    if (!body || typeof body !== 'object' || typeof body.code !== 'string' || typeof body.message !== 'string') {
      problems.push(`error answer without the Error body {code, message}: ${answer.text.slice(0, 200)}`);
    } else {
      const check = contract.checkSchema('Error', body);
      if (check.errors.length > 0) problems.push(`Error body breaks the document: ${JSON.stringify(check.errors)}`);
    }
  } else if (answer.status >= 200 && answer.status < 300) {
    if (!op) problems.push(`a ${answer.status} from no documented operation`);
    else {
      const check = op.checkResponse(answer.status, answer.headers, answer.body);
      if (check.errors.length + check.drift.length > 0)
        problems.push(
          `${op.operationId} ${answer.status} breaks the document: ${JSON.stringify([...check.errors, ...check.drift]).slice(0, 500)}`,
        );
    }
  } else {
    problems.push(`unexpected status ${answer.status}`);
  }
  return problems;
}
