// Runs jobs at a time of the mock clock (auto-settlement, webhook deliveries and retries). The
// jobs are data in a queue of the store (mock/store/job-queue.ts): in memory, or in Redis where
// every replica claims from the same queue, so a due job runs once whichever replica scheduled
// it. A handler is registered per kind of job and must be idempotent: a job whose replica died
// mid-way runs again on another once its lease runs out.
//
// A real timer waits for the earliest job, none while the clock is frozen; a clock jump re-arms
// it. Up to `workers` jobs run at once (one per group at most, which the queue enforces), so a
// slow webhook receiver holds up only its own subscription.
import { randomUUID } from 'node:crypto';
import type { ControllableClock } from '../clock';
import { ServiceError } from '../errors/catalogue';
import type { ClaimedJob, JobCounts, JobQueue, JobSpec, PendingJob } from '../store';

/** Runs a claimed job; answers the job that follows it (the next retry), scheduled as the job completes. */
export type JobHandler = (job: ClaimedJob) => Promise<JobSpec | undefined>;

export interface SchedulerOptions {
  /** The queue's lease (JOB_LEASE_MS): a running job's claim is renewed three times per lease. */
  leaseMs: number;
  /** Jobs run at once by this process (default 16). */
  workers?: number;
}

/** While other replicas still run jobs, how often `drain` looks again. */
const DRAIN_POLL_MS = 20;
/** A job due but not claimable now (held elsewhere, Redis away) is tried again after this long. */
const RETRY_CLAIM_MS = 200;

export class Scheduler {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly workers = new Set<Promise<void>>();
  /** Claims are `<this process>:<n>`: a lease taken over by another replica is never completed by this one. */
  private readonly owner = randomUUID();
  private claims = 0;
  /** Workers that have not claimed yet (at most one: see startWorker). */
  private probing = 0;
  /** Jobs this process has claimed; tells the timer whether a run made progress. */
  private claimed = 0;
  private timer: NodeJS.Timeout | undefined;
  private armedFor: number | undefined;
  private stopped = false;
  /** The jobs running here, whose leases the renewer extends. */
  private readonly held = new Set<ClaimedJob>();
  private readonly renewer: NodeJS.Timeout;
  /** While the queue is being cleared, no new claims: jobs due behind running ones must not run against the old state. */
  private clearing = false;

  constructor(
    private readonly clock: ControllableClock,
    readonly queue: JobQueue,
    private readonly onError: (error: unknown) => void,
    private readonly options: SchedulerOptions,
  ) {
    clock.onJump(() => this.arm());
    // One timer renews the lease of every job running here, three times per lease.
    this.renewer = setInterval(
      () => {
        for (const job of this.held) void this.queue.renew(job).catch(() => undefined);
      },
      Math.max(10, options.leaseMs / 3),
    );
    this.renewer.unref();
  }

  handle(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Runs the same kinds of job as `other` (a customer's own clock's scheduler runs the mock's). */
  handleAs(other: Scheduler): void {
    for (const [kind, handler] of other.handlers) this.handlers.set(kind, handler);
  }

  /** Adds jobs; resolves once they are kept (in Redis: every replica can now claim them). */
  async schedule(...jobs: JobSpec[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue.schedule(jobs);
    const earliest = Math.min(...jobs.map((job) => job.dueAt));
    // Due now: a worker claims it (the last worker to stop re-arms the timer).
    if (earliest <= this.clock.now()) this.startWorker();
    else if (this.armedFor === undefined || earliest < this.armedFor) this.arm();
  }

  /** When the earliest claimable job falls due, if any (every replica's jobs, on Redis). */
  nextDueAt(): Promise<number | undefined> {
    return this.queue.nextDueAt();
  }

  counts(): Promise<JobCounts> {
    return this.queue.counts();
  }

  /** The jobs not completed (every replica's, on Redis; of one group, or all), by due time; the first `limit`. */
  list(limit: number, group?: string): Promise<{ total: number; jobs: PendingJob[] }> {
    return this.queue.list(limit, group);
  }

  /** A webhook message's attempts, counted across replicas: this attempt's number, from 1. */
  nextAttempt(messageId: string): Promise<number> {
    return this.queue.nextAttempt(messageId);
  }

  /** Claims and runs what is due now until nothing due can be claimed; resolves when this process's jobs have finished. */
  runDue(): Promise<void> {
    this.startWorker();
    return this.idle();
  }

  /**
   * Runs what is due until nothing is due or running anywhere: jobs other replicas run, and the
   * job of a replica that died (claimed again here once its lease runs out), included.
   */
  async drain(): Promise<void> {
    while (!this.stopped) {
      await this.runDue();
      const [next, counts] = await Promise.all([this.queue.nextDueAt(), this.queue.counts()]);
      if (counts.running === 0 && (next === undefined || next > this.clock.now())) return;
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
  }

  /** Waits for the jobs this process is running. */
  async idle(): Promise<void> {
    while (this.workers.size > 0) await Promise.all(this.workers);
  }

  /** Drops every job (after this process's running ones finish: they end against the old state). */
  async clear(): Promise<void> {
    this.clearing = true;
    try {
      await this.idle();
      await this.queue.clear();
    } finally {
      this.clearing = false;
    }
    this.arm();
  }

  /** Looks at the queue again: claims what fell due (jobs of other replicas, leases run out) and re-arms the timer. */
  poll(): Promise<void> {
    return this.runDue().then(() => this.arm());
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    clearInterval(this.renewer);
  }

  private startWorker(): void {
    // One worker at a time looks for more work: a burst of jobs of one group (one subscription)
    // does not send a claim that finds the group busy after every job.
    if (this.stopped || this.probing > 0 || this.workers.size >= (this.options.workers ?? 16)) return;
    const worker: Promise<void> = this.work().finally(() => {
      this.workers.delete(worker);
      // Nothing left to claim now: wait for what falls due next.
      if (this.workers.size === 0) this.arm();
    });
    this.workers.add(worker);
  }

  private async work(): Promise<void> {
    let probing = true;
    this.probing++;
    try {
      while (!this.stopped && !this.clearing) {
        let job: ClaimedJob | undefined;
        try {
          job = await this.queue.claim(this.clock.now(), `${this.owner}:${++this.claims}`);
        } catch (error) {
          this.onError(error);
          return;
        }
        if (probing) {
          probing = false;
          this.probing--;
        }
        if (!job) return;
        this.claimed++;
        // More may be due: let another worker claim while this one runs.
        this.startWorker();
        await this.run(job);
      }
    } finally {
      if (probing) this.probing--;
    }
  }

  private async run(job: ClaimedJob): Promise<void> {
    this.held.add(job);
    let next: JobSpec | undefined;
    try {
      const handler = this.handlers.get(job.kind);
      if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
      next = await handler(job);
    } catch (error) {
      this.onError(error);
      // Redis lost mid-way: the job stays claimed and runs again, on any replica, once its lease
      // runs out (handlers are idempotent). Any other failure ends the job, as it would end a request.
      if (error instanceof ServiceError && error.code === 'SERVICE_UNAVAILABLE') return;
    } finally {
      this.held.delete(job);
    }
    try {
      // A follow-up due sooner than the timer waits for (a retry) re-arms it.
      if ((await this.queue.complete(job, next)) && next && (this.armedFor === undefined || next.dueAt < this.armedFor)) this.arm();
    } catch (error) {
      this.onError(error);
    }
  }

  private arm(): void {
    if (this.stopped) return;
    this.queue.nextDueAt().then(
      (next) => this.armAt(next),
      (error: unknown) => this.onError(error),
    );
  }

  private armAt(next: number | undefined): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
    if (next === undefined || this.stopped) return;
    const wait = next - this.clock.now();
    if (wait <= 0) {
      // Due now. Should nothing be claimed (another replica took it, or Redis is away), look
      // again a little later rather than at once.
      const before = this.claimed;
      void this.runDue().then(() => {
        if (this.claimed > before) this.arm();
        else if (!this.stopped) {
          this.timer = setTimeout(() => this.arm(), RETRY_CLAIM_MS);
          this.timer.unref();
        }
      });
      return;
    }
    // While the clock is frozen only a jump can make a job due.
    if (this.clock.frozen) return;
    this.armedFor = next;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.armedFor = undefined;
        void this.runDue().then(() => this.arm());
      },
      Math.min(wait, 2 ** 31 - 1),
    );
    this.timer.unref();
  }
}
