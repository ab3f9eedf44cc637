// Injected faults (control API): per method and path pattern, a latency (fixed or a range), an
// error status or a dropped connection, for the next N matching requests or a share of them.
// The registry is plain logic; fault-middleware.ts applies what it decides. With a shared state
// (REDIS_URL) the faults live in Redis: a fault added through one replica acts on all, and its
// `times` are counted across them (one atomic hit per firing); each replica matches against a
// mirror it reloads when the faults' version changes (read with the clock on every request).
// A fault may name a customer: it then acts only on requests carrying that customer's
// token, so tests sharing one mock each fault their own traffic. The token is read only when such
// a fault matches the method and path: requests pay nothing for faults scoped to others' paths.
import { ServiceError } from '../errors/catalogue';
import { isControlPath } from './control-path';
import { pathGlob, withoutTrailingSlashes, type PathGlob } from './path-glob';

export type Latency = number | { min: number; max: number };

export interface FaultInput {
  method?: string;
  path: string;
  latencyMs?: Latency;
  error?: { status: number; code?: string; message?: string };
  drop?: boolean;
  times?: number;
  percent?: number;
  customerId?: string;
}

export interface Fault {
  id: string;
  method: string;
  path: string;
  latencyMs?: Latency;
  error?: { status: number; code: string; message: string };
  drop: boolean;
  times?: number;
  remaining?: number;
  percent?: number;
  hits: number;
  createdAt: string;
  customerId?: string;
}

/** The customer whose token a request carries, undefined when it carries no valid one; asked only when needed. */
export type CustomerOfRequest = () => Promise<string | undefined>;

/** What to do to one request. */
export interface FaultAction {
  fault: Fault;
  latencyMs: number;
}

export const DEFAULT_FAULT_CODE = 'INJECTED_FAULT';
const DEFAULT_FAULT_MESSAGE = 'A fault injected through the control API.';

/** `*`: any characters within a segment; `**`: any characters across segments (path-glob.ts). */
export const pathPattern = pathGlob;

/** Where shared faults are kept (mock/store/redis/shared-state.ts): fault JSON by id. */
export interface SharedFaults {
  faultsList(): Promise<string[]>;
  faultPut(id: string, json: string): Promise<void>;
  faultRemove(id: string): Promise<boolean>;
  faultsClear(): Promise<void>;
  /** Counts one firing atomically; the fault after it, or null when it is gone. */
  faultHit(id: string): Promise<string | null>;
}

/** A fault as kept in the shared state: with its place in the order faults are tried. */
type StoredFault = Fault & { order: string };

/** Real time, then a counter, as a string of fixed width (a string: Redis's cjson would round a number this long). */
function faultOrder(counter: number): string {
  return `${String(Date.now()).padStart(15, '0')}${String(counter).padStart(9, '0')}`;
}

export class FaultRegistry {
  private faults = new Map<string, { fault: Fault; pattern: PathGlob }>();
  private version: number | undefined;
  private added = 0;

  constructor(
    private readonly newId: () => string,
    private readonly now: () => string,
    /** In [0, 1): decides `percent` and draws latencies from a range. */
    private readonly random: () => number = Math.random,
    private readonly shared?: SharedFaults,
  ) {}

  /** How many faults this replica knows of; none means no request needs to ask. */
  get size(): number {
    return this.faults.size;
  }

  /** Reloads the shared faults when their version has moved (another replica changed them). */
  async refresh(version: number): Promise<void> {
    if (!this.shared || version === this.version) return;
    const stored = await this.storedFaults();
    this.faults = new Map(stored.map((fault) => [fault.id, { fault, pattern: pathPattern(fault.path) }]));
    // Taken only once loaded: a failed load is tried again at the next sync.
    this.version = version;
  }

  private async storedFaults(): Promise<Fault[]> {
    const stored = (await (this.shared as SharedFaults).faultsList()).map((json) => JSON.parse(json) as StoredFault);
    return stored
      .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : a.id.localeCompare(b.id)))
      .map(({ order: _order, ...fault }) => fault);
  }

  async add(input: FaultInput): Promise<Fault> {
    if (isControlPath(input.path)) {
      throw invalid('body.path', 'faults apply to the service API, not to /_mock');
    }
    if (typeof input.latencyMs === 'object' && input.latencyMs.min > input.latencyMs.max) {
      throw invalid('body.latencyMs.max', 'must not be less than min');
    }
    const fault: Fault = {
      id: this.newId(),
      method: input.method ?? '*',
      path: input.path,
      drop: input.drop === true,
      hits: 0,
      createdAt: this.now(),
    };
    if (input.latencyMs !== undefined) fault.latencyMs = input.latencyMs;
    if (input.error)
      fault.error = {
        status: input.error.status,
        code: input.error.code ?? DEFAULT_FAULT_CODE,
        message: input.error.message ?? DEFAULT_FAULT_MESSAGE,
      };
    if (input.times !== undefined) {
      fault.times = input.times;
      fault.remaining = input.times;
    }
    if (input.percent !== undefined) fault.percent = input.percent;
    if (input.customerId !== undefined) fault.customerId = input.customerId;
    // Real time orders faults across replicas (the mock clock can be set back); the counter within one.
    if (this.shared) await this.shared.faultPut(fault.id, JSON.stringify({ ...fault, order: faultOrder(this.added++) }));
    this.faults.set(fault.id, { fault, pattern: pathPattern(input.path) });
    return { ...fault };
  }

  /** Every fault, oldest first; with a customer, only the faults scoped to it. */
  async list(customerId?: string): Promise<Fault[]> {
    const all = this.shared ? await this.storedFaults() : [...this.faults.values()].map(({ fault }) => ({ ...fault }));
    return customerId === undefined ? all : all.filter((fault) => fault.customerId === customerId);
  }

  /** Removes the faults scoped to one customer; the others stay. */
  async removeForCustomer(customerId: string): Promise<void> {
    for (const fault of await this.list(customerId)) await this.remove(fault.id);
  }

  async remove(id: string): Promise<boolean> {
    const local = this.faults.delete(id);
    return this.shared ? this.shared.faultRemove(id) : local;
  }

  async clear(): Promise<void> {
    this.faults.clear();
    if (this.shared) await this.shared.faultsClear();
  }

  /**
   * The fault that acts on this request, if any: the oldest that matches and fires. Firing
   * counts a hit and uses up one of `times` (the fault removes itself at zero).
   */
  async take(method: string, path: string, customerOf?: CustomerOfRequest): Promise<FaultAction | undefined> {
    const target = withoutTrailingSlashes(path);
    // The request's customer, read once and only if a fault scoped to a customer gets that far.
    let customer: Promise<string | undefined> | undefined;
    for (const { fault, pattern } of [...this.faults.values()]) {
      if (fault.method !== '*' && fault.method !== method.toUpperCase()) continue;
      if (!pattern.test(target)) continue;
      if (fault.customerId !== undefined) {
        customer ??= customerOf ? customerOf() : Promise.resolve(undefined);
        if ((await customer) !== fault.customerId) continue;
      }
      if (fault.percent !== undefined && this.random() * 100 >= fault.percent) continue;
      const fired = this.shared ? await this.sharedHit(fault.id) : localHit(fault);
      if (!fired) continue;
      // Stryker disable next-line ConditionalExpression: without `times` the comparison is `undefined <= 0`, false either way.
      if (fired.remaining !== undefined && fired.remaining <= 0) this.faults.delete(fault.id);
      return { fault: { ...fired }, latencyMs: this.drawLatency(fired.latencyMs) };
    }
    return undefined;
  }

  /** The fault after one atomic hit in the shared state; undefined (and forgotten) when another replica used it up. */
  private async sharedHit(id: string): Promise<Fault | undefined> {
    const json = await (this.shared as SharedFaults).faultHit(id);
    if (json === null) {
      this.faults.delete(id);
      return undefined;
    }
    // The mirror's copy is left as it is: it is read only for matching (method, path, percent).
    const { order: _order, ...fault } = JSON.parse(json) as StoredFault;
    return fault;
  }

  private drawLatency(latency: Latency | undefined): number {
    if (latency === undefined) return 0;
    if (typeof latency === 'number') return latency;
    return latency.min + Math.floor(this.random() * (latency.max - latency.min + 1));
  }
}

/** Counts one firing of a fault this process alone keeps. */
function localHit(fault: Fault): Fault {
  fault.hits += 1;
  if (fault.remaining !== undefined) fault.remaining -= 1;
  return fault;
}

function invalid(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', { fields: [{ field, message }] });
}
