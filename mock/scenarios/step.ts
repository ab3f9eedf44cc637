// One step of a scenario: send its call (service, control, clock or webhooks), then check the
// status, that a call's answer conforms to the document (`expect.conforms`), the headers and body
// against `expect`, keep what `save` names, and check `expect-events`.
import { randomUUID } from 'node:crypto';
import { conformanceFailure } from './conformance';
import { controlPath, describeAnswer, type HttpAnswer, type MockClient } from './http';
import { describeDifferences, partialMatch } from './match';
import { getPath, parsePath } from './paths';
import type { Endpoint } from '../receiver/receiver';
import type { Session } from './setup';
import { render, renderString, TemplateError, type TemplateContext } from './template';
import type { Step } from './types';

/** A step's expectation that did not hold (with the status answered, when there was a call). */
export class StepFailure extends Error {
  override name = 'StepFailure';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface StepContext {
  client: MockClient;
  session: Session;
  context: TemplateContext;
  saved: Record<string, unknown>;
  /** The declared receivers (endpoints of the scripted receiver, mock/receiver). */
  receivers: Map<string, Endpoint>;
  control: boolean;
  /** Filled with what the step saw, when given (for comparisons of two targets). */
  observation?: StepObservation;
}

/** What one step saw: its call's answer, and the event types of the receiver its expect-events names. */
export interface StepObservation {
  answer?: HttpAnswer;
  events?: string[];
}

/** Runs one step; returns the status of its HTTP call (if any); throws StepFailure or TemplateError when something differs. */
export async function runStep(step: Step, s: StepContext): Promise<number | undefined> {
  const answer = await send(step, s);
  if (s.observation && answer) s.observation.answer = answer;
  if (answer) {
    const failure = (message: string) => new StepFailure(message, answer.status);
    checkStatus(step, answer, failure);
    if (step.expect?.conforms === true && step.call !== undefined) {
      const [method = 'GET', rawPath = '/'] = step.call.split(' ');
      const broken = conformanceFailure(method, renderString(rawPath, s.context), answer);
      if (broken !== undefined) throw failure(broken);
    }
    for (const [header, value] of Object.entries(step.expect?.headers ?? {})) {
      const expected = renderString(value, s.context);
      const actual = answer.headers[header.toLowerCase()];
      if (actual !== expected)
        throw failure(
          `headers.${header.toLowerCase()}: expected ${JSON.stringify(expected)}, ` +
            `got ${actual === undefined ? 'nothing' : JSON.stringify(actual)}`,
        );
    }
    if (step.expect && 'body' in step.expect) {
      const differences = partialMatch(render(step.expect.body, s.context), answer.body, 'body');
      if (differences.length > 0) throw failure(describeDifferences(differences) + verdict(answer));
    }
    for (const [name, path] of Object.entries(step.save ?? {})) {
      const { found, value } = getPath({ status: answer.status, headers: answer.headers, body: answer.body }, parsePath(path));
      if (!found) throw failure(`save ${name}: ${path} is not in the answer${answer.body === undefined ? ' (it has no body)' : ''}`);
      s.saved[name] = value;
    }
  }
  const events = step['expect-events'];
  if (events) await checkEvents(events, s);
  return answer?.status;
}

async function send(step: Step, s: StepContext): Promise<HttpAnswer | undefined> {
  const { client, context } = s;
  if (step.call !== undefined) {
    const [method = 'GET', rawPath = '/'] = step.call.split(' ');
    const path = renderString(rawPath, context);
    const headers: Record<string, string> = {};
    const given = Object.fromEntries(
      Object.entries((render(step.headers ?? {}, context) as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]),
    );
    const has = (name: string) => Object.keys(given).some((k) => k.toLowerCase() === name);
    if (step.auth !== false && !has('authorization')) headers.authorization = `Bearer ${s.session.token}`;
    // The service requires a key on every POST/PUT/PATCH but the token call.
    if (['POST', 'PUT', 'PATCH'].includes(method) && !path.startsWith('/api/oauth/') && !has('x-idempotency-key'))
      headers['x-idempotency-key'] = randomUUID();
    // A header given as false is not sent, and takes the place of the one the runner would add.
    for (const [name, value] of Object.entries(given)) if (value === 'false' && step.headers?.[name] === false) delete given[name];
    return client.send(method, path, {
      body: step.body === undefined ? undefined : render(step.body, context),
      headers: { ...headers, ...given },
    });
  }
  if (step.control !== undefined) {
    const [method = 'POST', rawPath = '/'] = step.control.split(' ');
    return client.send(method, controlPath(renderString(rawPath, context)), {
      body: step.body === undefined ? undefined : render(step.body, context),
    });
  }
  if (step.clock !== undefined) {
    // The customer's own clock when the scenario has one (only its jobs run), else the mock's.
    const answer = await client.control('POST', `${s.session.clockPath}/advance`, { by: String(step.clock) });
    // Time moved: a token issued before may have expired; clients get a new one.
    if (answer.status === 200) await s.session.refreshToken();
    return answer;
  }
  if (step.webhooks !== undefined) return client.control('POST', '/webhooks/idle');
  return undefined;
}

function checkStatus(step: Step, answer: HttpAnswer, failure: (message: string) => Error): void {
  const expected = step.expect?.status;
  const plain = step.call === undefined && step.control === undefined;
  if (expected !== undefined ? answer.status === expected : plain ? answer.status === 200 : answer.status >= 200 && answer.status < 300)
    return;
  const wanted = expected !== undefined ? String(expected) : plain ? '200' : 'a 2xx';
  throw failure(`status: expected ${wanted}, got ${describeAnswer(answer)}${excerpt(answer)}`);
}

/** A verification that did not hold (POST /_mock/journal/verify, /deliveries/verify) says why, near misses included. */
function verdict(answer: HttpAnswer): string {
  const body = answer.body as { ok?: unknown; message?: unknown } | undefined;
  return body?.ok === false && typeof body.message === 'string' ? ` - ${body.message}` : '';
}

function excerpt(answer: HttpAnswer): string {
  const body = answer.body as { code?: unknown } | undefined;
  if (body === undefined || (typeof body === 'object' && body !== null && typeof body.code === 'string')) return '';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return ` - ${text.length > 160 ? `${text.slice(0, 157)}...` : text}`;
}

async function checkEvents(events: NonNullable<Step['expect-events']>, s: StepContext): Promise<void> {
  // Deliveries run after the answer that caused them: wait until every queued one was attempted.
  if (s.control) {
    const idle = await s.client.control('POST', '/webhooks/idle');
    if (idle.status !== 200) throw new StepFailure(`POST /_mock/webhooks/idle answered ${describeAnswer(idle)}`);
  }
  const receiver = s.receivers.get(events.receiver);
  if (!receiver) throw new TemplateError(`no receiver "${events.receiver}"`);
  const got = receiver.eventTypes();
  if (s.observation) s.observation.events = got;
  const list = (types: string[]) => `[${types.join(', ')}]`;
  if (events.types) {
    const same = got.length === events.types.length && got.every((type, i) => type === events.types?.[i]);
    if (!same) throw new StepFailure(`receiver ${events.receiver}: expected events ${list(events.types)}, got ${list(got)}`);
  }
  if (events.contains) {
    const left = [...got];
    const missing = events.contains.filter((type) => {
      const at = left.indexOf(type);
      if (at === -1) return true;
      left.splice(at, 1);
      return false;
    });
    if (missing.length > 0)
      throw new StepFailure(
        `receiver ${events.receiver}: expected events to contain ${list(events.contains)}, got ${list(got)} (missing ${list(missing)})`,
      );
  }
}
export { send as sendStep };
