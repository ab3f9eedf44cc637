// The job queue in memory (the default; one process, so a claim never needs a lease). Each group
// keeps its jobs in due order; a heap holds the first job of every group with none running, so
// the next claimable job is found in O(log n). Heap entries are checked when they surface (a
// group's first job may have changed since, or the group may be running) rather than removed
// when they go stale.
import type { ClaimedJob, JobCounts, JobQueue, JobSpec, PendingJob } from './job-queue';
import { MinHeap } from './min-heap';

interface Entry {
  id: string;
  order: number;
  spec: JobSpec;
  runs: number;
}

const before = (a: Entry, b: Entry) => a.spec.dueAt < b.spec.dueAt || (a.spec.dueAt === b.spec.dueAt && a.order < b.order);

export class MemoryJobQueue implements JobQueue {
  private order = 0;
  /** Every group's jobs, in due order (ties in the order scheduled). */
  private readonly groups = new Map<string, Entry[]>();
  /** Groups with a job running: group → the claim. */
  private readonly running = new Map<string, { id: string; claim: string }>();
  private readonly heads = new MinHeap<Entry>(before);
  private readonly attempts = new Map<string, number>();
  private readonly uniques = new Set<string>();

  schedule(jobs: readonly JobSpec[]): Promise<void> {
    for (const spec of jobs) this.add(spec);
    return Promise.resolve();
  }

  claim(now: number, claim: string): Promise<ClaimedJob | undefined> {
    const head = this.head();
    if (!head || head.spec.dueAt > now) return Promise.resolve(undefined);
    this.heads.pop();
    this.running.set(head.spec.group, { id: head.id, claim });
    head.runs++;
    return Promise.resolve({ ...head.spec, id: head.id, claim, runs: head.runs });
  }

  complete(job: ClaimedJob, next?: JobSpec): Promise<boolean> {
    if (!this.holds(job)) return Promise.resolve(false);
    this.running.delete(job.group);
    const jobs = this.groups.get(job.group) as Entry[];
    jobs.splice(
      jobs.findIndex((entry) => entry.id === job.id),
      1,
    );
    if (jobs.length === 0) this.groups.delete(job.group);
    else this.heads.push(jobs[0] as Entry);
    if (next) this.add(next);
    return Promise.resolve(true);
  }

  renew(job: ClaimedJob): Promise<boolean> {
    return Promise.resolve(this.holds(job));
  }

  nextDueAt(): Promise<number | undefined> {
    return Promise.resolve(this.head()?.spec.dueAt);
  }

  counts(): Promise<JobCounts> {
    let all = 0;
    for (const jobs of this.groups.values()) all += jobs.length;
    return Promise.resolve({ waiting: all - this.running.size, running: this.running.size });
  }

  list(limit: number, group?: string): Promise<{ total: number; jobs: PendingJob[] }> {
    const entries = group === undefined ? [...this.groups.values()].flat() : [...(this.groups.get(group) ?? [])];
    const all = entries.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    const jobs = all.slice(0, limit).map((entry) => ({
      ...entry.spec,
      id: entry.id,
      running: this.running.get(entry.spec.group)?.id === entry.id,
    }));
    return Promise.resolve({ total: all.length, jobs });
  }

  clear(): Promise<void> {
    this.groups.clear();
    this.running.clear();
    this.heads.clear();
    this.attempts.clear();
    this.uniques.clear();
    return Promise.resolve();
  }

  dropGroup(group: string): Promise<number> {
    const jobs = this.groups.get(group) ?? [];
    const running = this.running.get(group);
    // The running job stays (it completes as it would); its stale heap entry, if any, is skipped by head().
    const kept = jobs.filter((entry) => entry.id === running?.id);
    if (kept.length > 0) this.groups.set(group, kept);
    else this.groups.delete(group);
    return Promise.resolve(jobs.length - kept.length);
  }

  nextAttempt(messageId: string): Promise<number> {
    const n = (this.attempts.get(messageId) ?? 0) + 1;
    this.attempts.set(messageId, n);
    return Promise.resolve(n);
  }

  attemptsMade(messageId: string): Promise<number> {
    return Promise.resolve(this.attempts.get(messageId) ?? 0);
  }

  setAttemptsMade(messageId: string, made: number): Promise<void> {
    this.attempts.set(messageId, made);
    return Promise.resolve();
  }

  private holds(job: ClaimedJob): boolean {
    const held = this.running.get(job.group);
    return held !== undefined && held.id === job.id && held.claim === job.claim;
  }

  private add(spec: JobSpec): void {
    if (spec.unique !== undefined) {
      if (this.uniques.has(spec.unique)) return;
      this.uniques.add(spec.unique);
    }
    // A copy: the caller's object changing later cannot move the job in its group.
    const entry: Entry = { id: `m${this.order}`, order: this.order++, spec: { ...spec }, runs: 0 };
    const jobs = this.groups.get(spec.group) ?? [];
    // Mostly appended (due later than what waits); a retry due earlier is placed by binary search.
    let lo = 0;
    let hi = jobs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(jobs[mid] as Entry, entry)) lo = mid + 1;
      else hi = mid;
    }
    jobs.splice(lo, 0, entry);
    this.groups.set(spec.group, jobs);
    if (lo === 0 && !this.running.has(spec.group)) this.heads.push(entry);
  }

  /** The first claimable job: the heap's top once stale entries are dropped. */
  private head(): Entry | undefined {
    for (let top = this.heads.peek(); top; top = this.heads.peek()) {
      const group = top.spec.group;
      if (!this.running.has(group) && this.groups.get(group)?.[0] === top) return top;
      this.heads.pop();
    }
    return undefined;
  }
}
