// Runs jobs at a time of the mock clock (auto-settlement, webhook retries). A real timer waits
// for the earliest job; moving the clock runs whatever fell due at once.
import type { ControllableClock } from '../clock';

interface Job {
  dueAt: number;
  order: number;
  run: () => Promise<void> | void;
}

export class Scheduler {
  private heap: Job[] = [];
  private counter = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: ControllableClock,
    private readonly onError: (error: unknown) => void,
  ) {
    clock.onJump(() => this.arm());
  }

  at(dueAt: number, run: Job['run']): void {
    this.push({ dueAt, order: this.counter++, run });
    this.arm();
  }

  in(ms: number, run: Job['run']): void {
    this.at(this.clock.now() + ms, run);
  }

  get pending(): number {
    return this.heap.length;
  }

  /** When the earliest job falls due, if any. */
  nextDueAt(): number | undefined {
    return this.heap[0]?.dueAt;
  }

  /** Runs every job due now, in due order; resolves when they have finished. */
  runDue(): Promise<void> {
    this.running = this.running.then(async () => {
      for (let job = this.peekDue(); job; job = this.peekDue()) {
        this.pop();
        try {
          await job.run();
        } catch (error) {
          this.onError(error);
        }
      }
    });
    return this.running;
  }

  /** Waits for the jobs that are running now (tests and the control API use this). */
  idle(): Promise<void> {
    return this.running;
  }

  clear(): void {
    this.heap = [];
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private peekDue(): Job | undefined {
    const top = this.heap[0];
    return top && top.dueAt <= this.clock.now() ? top : undefined;
  }

  private arm(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const top = this.heap[0];
    if (!top) return;
    const wait = top.dueAt - this.clock.now();
    if (wait <= 0) {
      void this.runDue().then(() => this.arm());
      return;
    }
    // While the clock is frozen only a jump can make a job due.
    if (this.clock.frozen) return;
    this.timer = setTimeout(() => void this.runDue().then(() => this.arm()), Math.min(wait, 2 ** 31 - 1));
    this.timer.unref();
  }

  private push(job: Job): void {
    const heap = this.heap;
    heap.push(job);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Job, heap[parent] as Job)) break;
      [heap[i], heap[parent]] = [heap[parent] as Job, heap[i] as Job];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < heap.length && before(heap[l] as Job, heap[best] as Job)) best = l;
      if (r < heap.length && before(heap[r] as Job, heap[best] as Job)) best = r;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best] as Job, heap[i] as Job];
      i = best;
    }
  }
}

function before(a: Job, b: Job): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.order < b.order);
}
