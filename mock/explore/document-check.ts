// The document's checks on one answer, named by the part that broke: document.status,
// document.headers (a JSON content type included) or document.body. The checking itself is the
// scenarios' `expect.conforms` (drift, such as an unknown value of an open set, is no failure).
import { conformanceErrors } from '../scenarios/conformance';
import type { HttpAnswer } from '../scenarios/http';
import type { CheckName } from './checks';

export interface DocumentFailure {
  check: CheckName;
  message: string;
}

/** The first part of the document the answer breaks, or undefined when it conforms. */
export function documentFailures(method: string, path: string, answer: HttpAnswer): DocumentFailure | undefined {
  const found = conformanceErrors(method, path, answer);
  if (!found) return undefined; // a call the document does not have: its refusal is checked where it is sent
  const type = answer.headers['content-type'];
  if (answer.body !== undefined && !(type ?? '').includes('json'))
    return { check: 'document.headers', message: `content-type ${type ?? 'absent'}, not JSON` };
  const { errors } = found;
  if (errors.length === 0) return undefined;
  const first = errors[0]!;
  const check: CheckName =
    first.field === 'status' ? 'document.status' : first.field.startsWith('header') ? 'document.headers' : 'document.body';
  const shown = errors.slice(0, 3).map((e) => `${e.field} ${e.message}`);
  if (errors.length > 3) shown.push(`and ${errors.length - 3} more`);
  return { check, message: shown.join('; ') };
}
