// A recorded session as a scenario (spec/scenario.schema.json): one step per exchange (the token
// call aside: the runner logs in itself), with its method, path, body and the status answered.
// A value an answer gave under an id-like key (`id`, `quoteId`, `nextCursor`) and a later request
// sends back is saved by the step that answered it and written `{{name}}` where it is used, so the
// scenario replays against a target that gives other ids.
import { CONTROL_ROOT, isControlPath } from '../http/control-path';
import { DEMO_CREDENTIALS, LOCAL_SECRET, type Credentials } from '../scenarios/setup';
import type { CustomerSpec, Scenario, Step } from '../scenarios/types';
import type { Exchange } from './record-proxy';
import { parseJson, redactJson } from './record-secrets';

const TOKEN_PATH = '/api/oauth/client/token';
const ID_KEY = /^id$|Id$|cursor$|Cursor$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESERVED = new Set(['customer', 'accounts', 'receivers']);

export interface RecordOptions {
  name: string;
  description?: string;
  /**
   * `recorded`: the client id the session logged in with, and its secret when that secret is one of
   * `publicClients`' (else LOCAL_SECRET).
   */
  customer: 'demo' | 'fresh' | 'recorded';
  /**
   * The target's clients whose secret is public and may be written: the demo data's when the target
   * is a fos-mock (the README prints them); none for a sandbox.
   */
  publicClients?: Credentials[];
}

interface Source {
  step: Step;
  path: string;
  base: string;
  name?: string;
}

export interface Recording {
  scenario: Scenario;
  /** What the user should know about the file (which customer it logs in as, values left as they were). */
  notes: string[];
}

export function scenarioFrom(exchanges: Exchange[], options: RecordOptions): Recording {
  const notes: string[] = [];
  const sources = new Map<string, Source>();
  const names = new Set<string>();
  const keys = idempotencyKeysUsedTwice(exchanges);
  const steps: Step[] = [];
  let clientId: string | undefined;
  /** The credentials of the last login the target accepted. */
  let accepted: Credentials | undefined;

  const literal = new Set<string>();
  const use = (value: string): string | undefined => {
    const source = sources.get(value);
    if (!source) {
      if (UUID.test(value)) literal.add(value);
      return undefined;
    }
    if (!source.name) {
      let name = source.base;
      for (let n = 2; names.has(name) || RESERVED.has(name); n++) name = `${source.base}${n}`;
      names.add(name);
      source.name = name;
      source.step.save = { ...source.step.save, [name]: source.path };
    }
    return `{{${source.name}}}`;
  };

  for (const e of exchanges) {
    const [pathOnly = '/'] = e.path.split('?');
    if (e.method === 'POST' && pathOnly === TOKEN_PATH) {
      const login = parseJson(e.requestBody, e.requestEncoding) as Partial<Credentials> | undefined;
      clientId = login?.clientId ?? clientId;
      if (e.status === 200 && login?.clientId && login.clientSecret)
        accepted = { clientId: login.clientId, clientSecret: login.clientSecret };
      continue;
    }
    const path = templatedPath(e.path, use);
    const control = isControlPath(pathOnly);
    const step: Step = control ? { control: `${e.method} ${path.slice(CONTROL_ROOT.length) || '/'}` } : { call: `${e.method} ${path}` };
    const body = parseJson(e.requestBody, e.requestEncoding);
    if (body !== undefined) step.body = templated(redactJson(body), use);
    if (!control) {
      const key = e.requestHeaders['x-idempotency-key'];
      if (key && keys.has(key)) step.headers = { 'X-Idempotency-Key': key };
      if (!e.requestHeaders.authorization) step.auth = false;
    }
    step.expect = { status: e.status };
    steps.push(step);
    const answer = parseJson(e.responseBody, e.responseEncoding);
    // Records' own ids first: a value is saved from where it is a record's id, not where another record refers to it.
    const noun = nounOf(pathOnly, sources);
    if (answer !== undefined) for (const ownIds of [true, false]) findIds(answer, 'body', undefined, noun, { step, sources, ownIds });
  }

  let customer: CustomerSpec = options.customer === 'recorded' ? 'demo' : options.customer;
  if (options.customer === 'recorded') {
    const known = publicLogin(clientId, accepted, options.publicClients ?? []);
    if (known) {
      customer = known.clientId === DEMO_CREDENTIALS.clientId ? 'demo' : known;
      notes.push(
        `the scenario logs in as ${known.clientId} with its public demo secret, as on the fos-mock it was recorded on: ` +
          'replay it on a mock serving the demo data',
      );
    } else if (clientId) {
      customer = { clientId, clientSecret: LOCAL_SECRET };
      notes.push(
        `the scenario logs in as ${clientId} with the secret ${LOCAL_SECRET} (the one fixtures pull gives it): ` +
          'replay it on a mock serving pulled fixtures, or change customer:',
      );
    } else notes.push('no token call was recorded: the scenario logs in as demo-client (customer: demo); change customer: if needed');
  }
  if (literal.size > 0)
    notes.push(
      `${literal.size} id${literal.size === 1 ? ' was' : 's were'} sent but shown by no earlier answer (e.g. ${[...literal][0]}); ` +
        'kept as recorded: replay it where those records exist (a mock serving fixtures pulled from the same target)',
    );
  if (steps.length === 0) notes.push('no exchange besides the token call was recorded: the scenario has no step');
  const scenario: Scenario = {
    name: options.name,
    ...(options.description ? { description: options.description } : {}),
    customer,
    steps,
  };
  return { scenario, notes };
}

/** The last login the target accepted, when it was as `clientId` with a public secret (the demo data's on a fos-mock). */
function publicLogin(
  clientId: string | undefined,
  accepted: Credentials | undefined,
  publicClients: Credentials[],
): Credentials | undefined {
  if (!accepted || accepted.clientId !== clientId) return undefined;
  return publicClients.find((c) => c.clientId === accepted.clientId && c.clientSecret === accepted.clientSecret);
}

/** The keys a client sent more than once (a deliberate retry): kept, so the replay retries too. */
function idempotencyKeysUsedTwice(exchanges: Exchange[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const e of exchanges) {
    const key = e.requestHeaders['x-idempotency-key'];
    if (key) (seen.has(key) ? twice : seen).add(key);
  }
  return twice;
}

/** The record a path is about, in the singular: /v1/operations/deposits → deposit, /api/accounts → account. */
function nounOf(path: string, sources: Map<string, Source>): string {
  const words = path.split('/').filter((s) => s && s !== 'api' && s !== 'v1' && s !== '_mock' && !sources.has(s) && !/\d/.test(s));
  const last = (words.at(-1) ?? 'record').replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
  return singular(last) || 'record';
}

function singular(word: string): string {
  return word.replace(/ies$/, 'y').replace(/s$/, '');
}

/** Where values found are recorded: the step that answered them, and the map of every value found so far. */
interface Finding {
  step: Step;
  sources: Map<string, Source>;
  /** Only `id` keys (first pass), or only the other id-like keys (second pass). */
  ownIds: boolean;
}

function findIds(value: unknown, path: string, parent: string | undefined, noun: string, f: Finding): void {
  if (Array.isArray(value)) value.forEach((item, i) => findIds(item, `${path}[${i}]`, parent, noun, f));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}.${key}`;
      // The first answer to show a value is where it is saved from; a nested record's id is named after its field.
      if (typeof item === 'string' && ID_KEY.test(key) && item.length >= 8) {
        if (f.sources.has(item) || (key === 'id') !== f.ownIds) continue;
        const base = key !== 'id' ? key : parent && parent !== 'data' ? singular(parent) : noun;
        f.sources.set(item, { step: f.step, path: at, base });
      } else findIds(item, at, key, noun, f);
    }
}

function templated(value: unknown, use: (value: string) => string | undefined): unknown {
  if (typeof value === 'string') return use(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => templated(item, use));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, templated(item, use)]));
  return value;
}

/** The path with each segment, and each query value, that an earlier answer gave written as its template. */
function templatedPath(path: string, use: (value: string) => string | undefined): string {
  const [pathOnly = '', query] = path.split('?', 2);
  const segments = pathOnly.split('/').map((s) => use(decoded(s)) ?? s);
  const pairs = query?.split('&').map((pair) => {
    const [key = '', raw] = pair.split('=', 2);
    if (raw === undefined) return pair;
    return `${key}=${use(decoded(raw.replace(/\+/g, ' '))) ?? raw}`;
  });
  return segments.join('/') + (pairs ? `?${pairs.join('&')}` : '');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a malformed escape: compared as it is
  }
}
