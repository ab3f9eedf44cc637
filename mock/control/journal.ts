// The request journal: every request the mock answers (service and control API), the last
// JOURNAL_SIZE kept in a ring buffer, so recording costs O(1) whatever the traffic.
import type { NextFunction, Request, Response } from 'express';
import type { Clock } from '../clock';

export const JOURNAL_SIZE = 1000;

/** What an injected fault did to a request (set on res.locals.fault by the fault middleware). */
export interface FaultTrace {
  id: string;
  latencyMs?: number;
  error?: number;
  drop?: boolean;
}

export interface JournalEntry {
  requestId: string;
  method: string;
  path: string;
  /** 0 when the connection closed without an answer (a dropped request). */
  status: number;
  latencyMs: number;
  at: string;
  fault?: FaultTrace;
}

export class Journal {
  private readonly ring: Array<JournalEntry | undefined>;
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number = JOURNAL_SIZE) {
    this.ring = new Array<JournalEntry | undefined>(capacity);
  }

  add(entry: JournalEntry): void {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Newest first, at most `limit`. */
  latest(limit: number = this.capacity): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++) out.push(this.ring[(this.next - i + this.capacity) % this.capacity] as JournalEntry);
    return out;
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  /** Records each request once, when its answer is finished or its connection closes. */
  middleware(clock: Clock) {
    return (req: Request, res: Response, next: NextFunction): void => {
      const started = process.hrtime.bigint();
      const at = clock.nowIso();
      const path = req.originalUrl.split('?')[0] ?? req.originalUrl;
      let recorded = false;
      const record = () => {
        if (recorded) return;
        recorded = true;
        const entry: JournalEntry = {
          requestId: String(res.locals.requestId),
          method: req.method,
          path,
          status: res.writableFinished ? res.statusCode : 0,
          latencyMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
          at,
        };
        if (res.locals.fault) entry.fault = res.locals.fault as FaultTrace;
        this.add(entry);
      };
      res.on('finish', record);
      res.on('close', record);
      next();
    };
  }
}
