// Before `fos-mock contract --url` starts the suite, a few calls ask whether the run can mean
// anything: something answers at the URL, it is a server of this API, and the suite has a customer
// to act as (a control API that makes them, or --client-id and --client-secret the target
// accepts). Any of these missing ends the command within seconds with one paragraph that says
// what to change, and exit code 2, instead of hundreds of failing tests.
import type { Dispatcher } from 'undici';
import { undici } from '../lazy/modules';
import { UserError } from '../scenarios/errors';
import { describeError } from '../scenarios/http';

/** A target the suite cannot run against; the command ends with exit code 2 (a usage error). */
export class ContractTargetError extends UserError {
  override name = 'ContractTargetError';
  readonly exitCode = 2;
}

/** How long one probe call may take. */
const PROBE_TIMEOUT_MS = 10_000;

export interface ProbeTarget {
  baseUrl: string;
  /** Where the control API would be (--control-url), the target by default. */
  controlUrl?: string;
  customers: Array<{ clientId: string; clientSecret: string; flags: string }>;
}

interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

const WHY: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name is not known',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ECONNRESET: 'the connection was reset',
  TimeoutError: `no answer within ${PROBE_TIMEOUT_MS / 1000} s`,
  AbortError: `no answer within ${PROBE_TIMEOUT_MS / 1000} s`,
  UND_ERR_CONNECT_TIMEOUT: `no connection within ${PROBE_TIMEOUT_MS / 1000} s`,
};

function didNotRun(text: string): ContractTargetError {
  return new ContractTargetError(`the contract suite did not run: ${text}`);
}

async function call(dispatcher: Dispatcher, baseUrl: string, method: string, path: string, body?: unknown): Promise<Answer> {
  let res: Dispatcher.ResponseData;
  try {
    res = await undici().request(`${baseUrl}${path}`, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch (error) {
    const e = error as { name?: string; code?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code ?? e.name ?? 'unknown';
    throw didNotRun(
      `nothing answers at ${baseUrl} (${WHY[code] ?? 'the request failed'}, ${code}). ` +
        '--url must be the base URL of a running server of the API, such as http://127.0.0.1:4010 where `npm start` serves the mock; ' +
        'without --url the suite starts a mock of its own.',
    );
  }
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: kept as the text it is.
  }
  const type = res.headers['content-type'];
  return { status: res.statusCode, contentType: (Array.isArray(type) ? type[0] : type) ?? 'no content type', body: parsed };
}

const isErrorBody = (body: unknown) => describeError(body) !== undefined;

/** Resolves when the suite can run against the target; throws a ContractTargetError saying why not. */
export async function probeContractTarget(target: ProbeTarget): Promise<void> {
  const agent = new (undici().Agent)({ keepAliveTimeout: 1_000 });
  try {
    await probe(target, (baseUrl, method, path, body) => call(agent, baseUrl, method, path, body));
  } finally {
    await agent.close();
  }
}

type Call = (baseUrl: string, method: string, path: string, body?: unknown) => Promise<Answer>;

async function probe(target: ProbeTarget, call: Call): Promise<void> {
  const { baseUrl } = target;
  // This API answers a list read without a token 401 with its Error body; anything else is another server.
  const anonymous = await call(baseUrl, 'GET', '/api/accounts');
  if (anonymous.status !== 401 || !isErrorBody(anonymous.body)) {
    throw didNotRun(
      `${baseUrl} is not a server of this API: GET /api/accounts without a token answered ` +
        `${anonymous.status} (${anonymous.contentType}), where the API answers 401 with its Error body. ` +
        'Check --url: it is the base URL under which /api/accounts and /v1/quotes are served.',
    );
  }
  const controlUrl = target.controlUrl ?? baseUrl;
  const health = await call(controlUrl, 'GET', '/_mock/health');
  const control = health.status === 200 && (health.body as { status?: unknown } | undefined)?.status === 'ok';
  if (!control && target.customers.length === 0) {
    throw didNotRun(
      `${controlUrl} has no control API (GET /_mock/health answered ${health.status}), so the suite cannot make customers of its own ` +
        'and needs one to act as: pass --client-id and --client-secret (and --client-id-2 and --client-secret-2 for the tenancy tests).',
    );
  }
  for (const customer of target.customers) {
    const token = await call(baseUrl, 'POST', '/api/oauth/client/token', {
      clientId: customer.clientId,
      clientSecret: customer.clientSecret,
    });
    const accessToken = (token.body as { accessToken?: unknown } | undefined)?.accessToken;
    if (token.status !== 200 || typeof accessToken !== 'string') {
      // The Error body's own sentence ends with its full stop.
      const answer = describeError(token.body)?.replace(/\.$/, '') ?? `(${token.contentType})`;
      throw didNotRun(
        `${baseUrl} refused the credentials of ${customer.clientId}: POST /api/oauth/client/token answered ${token.status} ${answer}. ` +
          `Check ${customer.flags}.`,
      );
    }
  }
}
