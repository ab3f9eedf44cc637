// Injected faults (control API): per method and path pattern, a latency (fixed or a range), an
// error status or a dropped connection, for the next N matching requests or a share of them.
// The registry is plain logic; fault-middleware.ts applies what it decides.
import { ServiceError } from '../errors/catalogue';

export type Latency = number | { min: number; max: number };

export interface FaultInput {
  method?: string;
  path: string;
  latencyMs?: Latency;
  error?: { status: number; code?: string; message?: string };
  drop?: boolean;
  times?: number;
  percent?: number;
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
}

/** What to do to one request. */
export interface FaultAction {
  fault: Fault;
  latencyMs: number;
}

export const DEFAULT_FAULT_CODE = 'INJECTED_FAULT';
const DEFAULT_FAULT_MESSAGE = 'A fault injected through the control API.';

/** `*`: any characters within a segment; `**`: any characters across segments. */
export function pathPattern(pattern: string): RegExp {
  const trimmed = pattern.length > 1 ? pattern.replace(/\/+$/, '') : pattern;
  const source = trimmed
    .split('**')
    .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

export class FaultRegistry {
  private readonly faults = new Map<string, { fault: Fault; pattern: RegExp }>();

  constructor(
    private readonly newId: () => string,
    private readonly now: () => string,
    /** In [0, 1): decides `percent` and draws latencies from a range. */
    private readonly random: () => number = Math.random,
  ) {}

  add(input: FaultInput): Fault {
    if (input.path === '/_mock' || input.path.startsWith('/_mock/')) {
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
    this.faults.set(fault.id, { fault, pattern: pathPattern(input.path) });
    return { ...fault };
  }

  list(): Fault[] {
    return [...this.faults.values()].map(({ fault }) => ({ ...fault }));
  }

  remove(id: string): boolean {
    return this.faults.delete(id);
  }

  clear(): void {
    this.faults.clear();
  }

  /**
   * The fault that acts on this request, if any: the oldest that matches and fires. Firing
   * counts a hit and uses up one of `times` (the fault removes itself at zero).
   */
  take(method: string, path: string): FaultAction | undefined {
    const target = path.length > 1 ? path.replace(/\/+$/, '') : path;
    for (const { fault, pattern } of this.faults.values()) {
      if (fault.method !== '*' && fault.method !== method.toUpperCase()) continue;
      if (!pattern.test(target)) continue;
      if (fault.percent !== undefined && this.random() * 100 >= fault.percent) continue;
      fault.hits += 1;
      if (fault.remaining !== undefined) {
        fault.remaining -= 1;
        if (fault.remaining <= 0) this.faults.delete(fault.id);
      }
      return { fault: { ...fault }, latencyMs: this.drawLatency(fault.latencyMs) };
    }
    return undefined;
  }

  private drawLatency(latency: Latency | undefined): number {
    if (latency === undefined) return 0;
    if (typeof latency === 'number') return latency;
    return latency.min + Math.floor(this.random() * (latency.max - latency.min + 1));
  }
}

function invalid(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', { fields: [{ field, message }] });
}
