// Jobs that fall due at a time of the mock clock (auto-settlement, webhook deliveries and their
// retries), kept where the state is: in memory, or in Redis where every replica claims from the
// same queue. The rules both queues keep (test/store/job-queue-contract.ts runs both):
// - a job is claimed by one caller at a time, and only once it is due by the mock clock;
// - jobs of one group (a subscription's deliveries, a customer's settlements) run one at a time,
//   in due order, ties in the order scheduled: a subscription receives its events in order;
// - completing a job and scheduling its follow-up (the next retry) is one step: a retry is
//   neither lost nor scheduled twice;
// - on Redis a claim is a lease in real time: the job of a replica that dies is claimed again by
//   another once the lease runs out (the holder renews it while the job runs).

/** A job to run: what it is, whose order it keeps, when it falls due. */
export interface JobSpec {
  /** What runs it (a handler registered under this name). */
  kind: string;
  /** Jobs of one group run one at a time, in due order, ties in the order scheduled. */
  group: string;
  /** Mock time, epoch ms. */
  dueAt: number;
  /** What the handler needs; plain JSON. */
  data: unknown;
  /**
   * When set, the job is scheduled only if no job with this key was scheduled before (until the
   * queue is cleared): work that may be asked for twice (an event published again by a job run
   * again after its replica died) is queued once.
   */
  unique?: string;
}

/** A job now held by one caller, until it completes it or (on Redis) its lease runs out. */
export interface ClaimedJob extends JobSpec {
  id: string;
  /** The claim's own token: a complete or renew with an older claim's token does nothing. */
  claim: string;
  /** This claim's number for the job, from 1: above 1, an earlier claim's lease ran out (its replica died or hung mid-way). */
  runs: number;
}

export interface JobCounts {
  /** Scheduled and not claimed (due or not). */
  waiting: number;
  /** Claimed and not completed, by any replica. */
  running: number;
}

/** A job not yet completed, as a listing shows it (GET /_mock/jobs). */
export interface PendingJob extends JobSpec {
  id: string;
  /** Claimed by a replica and not completed. */
  running: boolean;
}

export interface JobQueue {
  schedule(jobs: readonly JobSpec[]): Promise<void>;
  /**
   * The earliest due job (dueAt ≤ now) of a group with no job running, now held under `claim`;
   * undefined when there is none. On Redis it first gives back the jobs whose lease ran out.
   */
  claim(now: number, claim: string): Promise<ClaimedJob | undefined>;
  /**
   * Ends a claimed job and schedules its follow-up in the same step; false when the claim was lost
   * (its lease ran out, or the queue was cleared).
   */
  complete(job: ClaimedJob, next?: JobSpec): Promise<boolean>;
  /** Extends the claim's lease; false when it was lost. */
  renew(job: ClaimedJob): Promise<boolean>;
  /** When the earliest claimable job falls due (a group's first job, the group not running). */
  nextDueAt(): Promise<number | undefined>;
  counts(): Promise<JobCounts>;
  /** The jobs not completed (of one group, or all) by due time, ties in the order scheduled: the first `limit`, and how many. */
  list(limit: number, group?: string): Promise<{ total: number; jobs: PendingJob[] }>;
  /** Drops every job, unique key and attempt count (reset, snapshot import); claims held now are lost. */
  clear(): Promise<void>;
  /**
   * Drops a group's jobs (one customer's reset: its settlements, its subscriptions' deliveries),
   * all but the one running now, which ends as it would; answers how many were dropped.
   */
  dropGroup(group: string): Promise<number>;
  /** A webhook message's attempts, counted by every replica: this attempt's number, from 1. */
  nextAttempt(messageId: string): Promise<number>;
  /** How many attempts of a webhook message were made (0 when none): what a snapshot keeps of a waiting delivery. */
  attemptsMade(messageId: string): Promise<number>;
  /** Sets the attempts made of a message (a snapshot import), so its next attempt is numbered after them. */
  setAttemptsMade(messageId: string, made: number): Promise<void>;
}
