// One test file's world: its target (an in-process mock of its own, or the URL), the control
// API when there is one, and the customer it acts as: a fresh, isolated customer from
// POST /_mock/customers when the control API exists, the configured one otherwise.
import { basename } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from '@jest/globals';
import { capabilities, missing, type Capabilities, type Need } from './capabilities';
import { ApiClient, closeConnections, type ClientContext } from './client';
import { Control } from './control';
import { within } from './eventually';
import { record } from './run';
import { DEMO_CUSTOMERS, settings, type Credentials } from './settings';
import { openTarget, type Target } from './target';

export interface Session {
  caps: Capabilities;
  target: Target;
  /** The control API, when the target serves it. */
  control?: Control;
  /** The customer this file acts as. */
  api: ApiClient;
  /** A client of another customer (fresh per call with a control API). */
  otherCustomer(): Promise<ApiClient>;
  /** A client with no credentials, for calls that carry their own Authorization. */
  anonymous: ApiClient;
  /** Waits until queued webhook deliveries were attempted (control API); a no-op otherwise. */
  deliveriesIdle(): Promise<void>;
  /** Runs at the end of the file (e.g. deleting what it created on a shared target). */
  onClose: (cleanup: () => Promise<unknown>) => void;
}

async function customerCredentials(control: Control | undefined, target: Target, which: 0 | 1, file: string): Promise<Credentials> {
  if (control) {
    const created = await control.createCustomer(`contract ${file}${which ? ' (other)' : ''}`);
    return { clientId: created.clientId, clientSecret: created.clientSecret };
  }
  return configuredCredentials(target, which);
}

function configuredCredentials(target: Target, which: 0 | 1): Credentials {
  const configured = which === 0 ? settings().customer : settings().otherCustomer;
  if (configured) return configured;
  if (target.inProcess) return DEMO_CUSTOMERS[which];
  const suffix = which ? '_2' : '';
  const flags = which ? '--client-id-2 and --client-secret-2' : '--client-id and --client-secret';
  throw new Error(
    `contract suite: ${target.baseUrl} has no control API, so it needs a customer to act as: ` +
      `set CONTRACT_CLIENT_ID${suffix} and CONTRACT_CLIENT_SECRET${suffix} (fos-mock contract: ${flags})`,
  );
}

/** Whether this file's session opened (one session per test file; jest loads this module per file). */
let opened = false;

/**
 * `beforeAll` that runs only when the file's session opened and the target has what the hook
 * needs (a skipped block's hooks never run anyway). A hook that failed would pin its error on
 * every test under it, skipped ones included, and jest prints each as a failure.
 */
export function beforeAllWhen(needs: readonly Need[], fn: () => Promise<unknown>, timeout?: number): void {
  beforeAll(async () => {
    if (opened && !missing(needs)) await fn();
  }, timeout);
}

/**
 * Registers the file's hooks and returns the session getter. When the session cannot open (the
 * target refuses the customer, the control API vanished), each test that runs fails with why,
 * through a beforeEach: a failing beforeAll would pin the error on the skipped tests too, and
 * jest prints every one of those as a failure.
 */
export function useSession(): () => Session {
  let session: Session | undefined;
  let failure: Error | undefined;
  const cleanups: Array<() => Promise<unknown>> = [];
  let target: Target | undefined;

  beforeAll(async () => {
    try {
      await open();
      opened = true;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
  });
  beforeEach(() => {
    if (failure) throw failure;
  });

  async function open(): Promise<void> {
    const caps = capabilities();
    const file = basename(expect.getState().testPath ?? 'unknown');
    // Each step waits for its thing to be ready, however long a busy machine takes; the guard of
    // `within` only names a step that hangs (jest's hook time-out is longer still).
    target = await within(caps.inProcess ? 'the in-process mock to start and listen' : `the target ${caps.label}`, openTarget(), (late) =>
      late.close(),
    );
    const control = await within(`GET ${target.controlUrl}/_mock/health`, Control.detect(target.controlUrl));
    if (Boolean(control) !== caps.control) {
      throw new Error(`contract suite: the target's control API ${control ? 'appeared' : 'vanished'} after the probe; run the suite again`);
    }
    record({ kind: 'target', file, label: caps.label, inProcess: caps.inProcess, control: caps.control, mock: caps.mock });
    record({
      kind: 'document',
      operations: target.contract.operations.map((op) => ({
        operationId: op.operationId,
        method: op.method.toUpperCase(),
        path: op.path,
        statuses: [...op.responses.keys()].map(Number),
      })),
    });
    const ctx: ClientContext = { baseUrl: target.baseUrl, contract: target.contract, file, driftFails: caps.mock, record };
    // With a control API the file's customer gets a clock of its own, and the file's control calls
    // move that clock: files running at once against one shared mock (jest workers) never expire
    // each other's quotes or fire each other's retries.
    const own = control && (await within('a fresh customer (POST /_mock/customers)', control.createCustomerWithClock(`contract ${file}`)));
    const credentials = own ? { clientId: own.clientId, clientSecret: own.clientSecret } : undefined;
    const api = new ApiClient(ctx, credentials ?? (await within('the customer', customerCredentials(undefined, target, 0, file))));
    const fileControl = own ? control.onClockOf(own) : control;
    let other: ApiClient | undefined;
    const t = target;
    session = {
      caps,
      target: t,
      control: fileControl,
      api,
      anonymous: new ApiClient(ctx),
      async otherCustomer() {
        if (control) return new ApiClient(ctx, await customerCredentials(control, t, 1, file));
        return (other ??= new ApiClient(ctx, await customerCredentials(undefined, t, 1, file)));
      },
      async deliveriesIdle() {
        if (control) await control.idle();
      },
      onClose: (cleanup) => void cleanups.push(cleanup),
    };
  }

  // Runs whether or not the beforeAll got through (jest runs afterAll after a failed beforeAll):
  // what the file registered is cleaned up, then the target (an in-process mock) is closed, then
  // the suite's connections. A resource a test file opens itself (a webhook receiver) gets its
  // own afterAll: `session().onClose` throws when the session never opened.
  afterAll(async () => {
    try {
      for (const cleanup of cleanups.reverse())
        await Promise.resolve()
          .then(cleanup)
          .catch(() => undefined);
    } finally {
      try {
        await target?.close();
      } finally {
        await closeConnections();
      }
    }
  });

  return () => {
    if (!session) throw new Error('contract suite: the session is not open (beforeAll failed?)');
    return session;
  };
}
