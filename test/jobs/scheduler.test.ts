// The Scheduler (mock/jobs/scheduler.ts) on a MemoryJobQueue: handlers per kind, jobs run when
// the mock clock says they are due, up to `workers` at once and never two of one group, a
// handler's follow-up scheduled as its job completes. Time is the mock clock's: a frozen clock
// moves only by jumps, a running one is driven by jest's fake timers; the one test on real time
// waits for a timer with a wide margin and asserts nothing about how long it took.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { createClock, type ControllableClock } from '../../mock/clock';
import { ServiceError } from '../../mock/errors/catalogue';
import { Scheduler } from '../../mock/jobs/scheduler';
import { type ClaimedJob, type JobQueue, type JobSpec, MemoryJobQueue } from '../../mock/store';
import { within } from '../support/waits';

const START = Date.parse('2025-03-10T12:00:00.000Z');
/** The kind whose handler logs the job's name in `ran`. */
const RUN = 'run';

const schedulers: Scheduler[] = [];

afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.stop();
  jest.useRealTimers();
});

/** A job named `name` (its data) due at `dueAt`, in its own group unless told. */
function at(name: string, dueAt: number, group = name, kind = RUN): JobSpec {
  return { kind, group, dueAt, data: { name } };
}

const nameOf = (job: ClaimedJob) => (job.data as { name: string }).name;

function setup(options: { frozen?: boolean; clock?: ControllableClock; queue?: JobQueue; workers?: number; leaseMs?: number } = {}) {
  const clock = options.clock ?? createClock({ start: START, frozen: options.frozen ?? true });
  const queue = options.queue ?? new MemoryJobQueue();
  const errors: unknown[] = [];
  const scheduler = new Scheduler(clock, queue, (error) => errors.push(error), {
    leaseMs: options.leaseMs ?? 30_000,
    workers: options.workers,
  });
  schedulers.push(scheduler);
  const ran: string[] = [];
  scheduler.handle(RUN, (job) => {
    ran.push(nameOf(job));
    return Promise.resolve(undefined);
  });
  /** Lets a jump's re-arming start the due jobs (it first asks the queue), then waits for them. */
  const afterJump = async () => {
    await settle();
    await scheduler.idle();
  };
  return { clock, queue, scheduler, errors, ran, afterJump };
}

/** Lets pending promise callbacks and immediate callbacks run (real timers only). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

async function settleMany(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await settle();
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Tells whether a promise has settled by now (after pending callbacks ran). */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await settleMany();
  return settled;
}

describe('scheduler on a frozen clock', () => {
  it('when the clock jumps past several jobs, then they run in due order, ties in the order scheduled', async () => {
    const { clock, scheduler, ran, afterJump } = setup({ workers: 1 });
    await scheduler.schedule(at('c', START + 3000), at('a1', START + 1000));
    await scheduler.schedule(at('b', START + 2000), at('a2', START + 1000));
    clock.advance(5000);
    await afterJump();
    expect(ran).toEqual(['a1', 'a2', 'b', 'c']);
    expect(await scheduler.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it("when the clock jumps past several jobs of one group, then they run in the group's order, whatever the workers", async () => {
    const { clock, scheduler, ran, afterJump } = setup({ workers: 8 });
    await scheduler.schedule(
      at('c', START + 3000, 'g'),
      at('a1', START + 1000, 'g'),
      at('b', START + 2000, 'g'),
      at('a2', START + 1000, 'g'),
    );
    clock.advance(5000);
    await afterJump();
    expect(ran).toEqual(['a1', 'a2', 'b', 'c']);
  });

  it('when the clock jumps part of the way, then only the jobs that fell due run', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    await scheduler.schedule(at('a', START + 1000), at('b', START + 2000), at('c', START + 3000));
    clock.advance(1500);
    await afterJump();
    expect(ran).toEqual(['a']);
    expect(await scheduler.counts()).toEqual({ waiting: 2, running: 0 });
    expect(await scheduler.nextDueAt()).toBe(START + 2000);
    clock.advance(500);
    await afterJump();
    expect(ran).toEqual(['a', 'b']);
  });

  it('while the clock stays frozen and does not jump, nothing runs, however long we wait', async () => {
    const { scheduler, ran } = setup();
    await scheduler.schedule(at('a', START + 1));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await settleMany();
    await scheduler.idle();
    expect(ran).toEqual([]);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 0 });
  });

  it('a job due at the current instant runs without any jump', async () => {
    const { clock, scheduler, ran } = setup();
    await scheduler.schedule(at('now', clock.now()));
    await scheduler.idle();
    expect(ran).toEqual(['now']);
  });

  it('a job due in the past runs without any jump', async () => {
    const { clock, scheduler, ran } = setup();
    await scheduler.schedule(at('past', clock.now() - 60_000), at('later', clock.now() + 1));
    await scheduler.idle();
    expect(ran).toEqual(['past']);
  });

  it('a job due at exactly the new time runs after a jump to it', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    await scheduler.schedule(at('exact', START + 5000));
    clock.advance(4999);
    await afterJump();
    expect(ran).toEqual([]);
    clock.advance(1);
    await afterJump();
    expect(ran).toEqual(['exact']);
  });

  it('a freeze at a later instant is a jump too: what fell due runs', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    await scheduler.schedule(at('a', START + 1000), at('b', START + 9000));
    clock.freeze(START + 1000);
    await afterJump();
    expect(ran).toEqual(['a']);
  });

  it('runDue runs what is due now and resolves once it has run', async () => {
    const { clock, queue, scheduler, ran } = setup();
    // Put in the queue behind the scheduler's back (as another replica would): nothing runs it yet.
    await queue.schedule([at('a', clock.now()), at('b', clock.now() + 1)]);
    await settleMany();
    expect(ran).toEqual([]);
    await scheduler.runDue();
    expect(ran).toEqual(['a']);
  });

  it('poll runs the jobs that fell due in the queue, those another replica scheduled included', async () => {
    const { clock, queue, scheduler, ran } = setup();
    await queue.schedule([at('theirs', clock.now())]);
    await scheduler.poll();
    await scheduler.idle();
    expect(ran).toEqual(['theirs']);
  });

  it('nextDueAt, counts and nextAttempt answer from the queue', async () => {
    const { queue, scheduler } = setup();
    await queue.schedule([at('a', START + 10)]);
    expect(await scheduler.nextDueAt()).toBe(START + 10);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 0 });
    expect(await scheduler.nextAttempt('msg-1')).toBe(1);
    expect(await queue.nextAttempt('msg-1')).toBe(2);
    expect(scheduler.queue).toBe(queue);
  });
});

describe('errors in jobs', () => {
  it('a throwing handler is reported to onError, its job ends, and the jobs after it still run', async () => {
    const { clock, scheduler, errors, ran, afterJump } = setup({ workers: 1 });
    const boom = new Error('boom');
    const rejected = new Error('rejected');
    scheduler.handle('throws', () => {
      throw boom;
    });
    scheduler.handle('rejects', () => Promise.reject(rejected));
    await scheduler.schedule(at('a', START + 1000), at('x', START + 2000, 'x', 'throws'), at('y', START + 3000, 'y', 'rejects'));
    await scheduler.schedule(at('d', START + 4000));
    clock.advance(5000);
    await afterJump();
    expect(ran).toEqual(['a', 'd']);
    expect(errors).toEqual([boom, rejected]);
    expect(await scheduler.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('a failed job does not hold up its group: the next job of the group runs', async () => {
    const { clock, scheduler, errors, ran } = setup();
    scheduler.handle('throws', () => Promise.reject(new Error('first')));
    await scheduler.schedule(at('fails', clock.now(), 'g', 'throws'), at('next', clock.now(), 'g'));
    await scheduler.drain();
    expect(ran).toEqual(['next']);
    expect(errors).toHaveLength(1);
  });

  it('a scheduler whose job threw keeps working for later jobs', async () => {
    const { clock, scheduler, errors, ran, afterJump } = setup();
    scheduler.handle('throws', () => Promise.reject(new Error('first')));
    await scheduler.schedule(at('x', START + 1000, 'x', 'throws'));
    clock.advance(1000);
    await afterJump();
    await scheduler.schedule(at('later', START + 2000));
    clock.advance(1000);
    await afterJump();
    expect(ran).toEqual(['later']);
    expect(errors).toHaveLength(1);
  });

  it('a job of a kind with no handler is reported to onError and dropped; later jobs run', async () => {
    const { clock, scheduler, errors, ran } = setup();
    await scheduler.schedule(at('orphan', clock.now(), 'g', 'unknown-kind'), at('next', clock.now(), 'g'));
    await scheduler.drain();
    expect(ran).toEqual(['next']);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('unknown-kind');
    expect(await scheduler.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('a job whose handler lost Redis (SERVICE_UNAVAILABLE) is not completed: it stays claimed until its lease runs out', async () => {
    const { clock, scheduler, errors, ran } = setup();
    const lost = new ServiceError('SERVICE_UNAVAILABLE', { dependency: 'redis' });
    scheduler.handle('loses-redis', () => Promise.reject(lost));
    await scheduler.schedule(at('lost', clock.now(), 'g', 'loses-redis'), at('behind', clock.now(), 'g'), at('other', clock.now()));
    await scheduler.runDue();
    expect(errors).toEqual([lost]);
    expect(ran).toEqual(['other']);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 1 });
  });
});

describe('groups and workers', () => {
  it('jobs of one group run one at a time: a slow job finishes before the next of its group starts', async () => {
    const { clock, scheduler } = setup();
    const log: string[] = [];
    scheduler.handle('slow', async () => {
      log.push('slow:start');
      await settleMany(3);
      log.push('slow:end');
      return undefined;
    });
    scheduler.handle('fast', () => {
      log.push('fast');
      return Promise.resolve(undefined);
    });
    await scheduler.schedule(at('slow', clock.now(), 'g', 'slow'), at('fast', clock.now(), 'g', 'fast'));
    await scheduler.drain();
    expect(log).toEqual(['slow:start', 'slow:end', 'fast']);
  });

  it("a slow job holds up only its own group: other groups' jobs run meanwhile", async () => {
    const { clock, scheduler, ran } = setup();
    const gate = deferred();
    scheduler.handle('slow', async (job) => {
      ran.push(`${nameOf(job)}:start`);
      await gate.promise;
      ran.push(`${nameOf(job)}:end`);
      return undefined;
    });
    await scheduler.schedule(
      at('slow', clock.now(), 'a', 'slow'),
      at('a2', clock.now(), 'a'),
      at('b1', clock.now(), 'b'),
      at('b2', clock.now(), 'b'),
    );
    await settleMany();
    expect(ran).toEqual(['slow:start', 'b1', 'b2']);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 1 });
    gate.resolve();
    await scheduler.drain();
    expect(ran).toEqual(['slow:start', 'b1', 'b2', 'slow:end', 'a2']);
  });

  it('at most `workers` jobs run at once', async () => {
    const { clock, scheduler } = setup({ workers: 3 });
    const gate = deferred();
    let active = 0;
    let most = 0;
    const finished: string[] = [];
    scheduler.handle('slow', async (job) => {
      most = Math.max(most, ++active);
      await gate.promise;
      active--;
      finished.push(nameOf(job));
      return undefined;
    });
    await scheduler.schedule(...Array.from({ length: 10 }, (_, i) => at(`j${i}`, clock.now(), `g${i}`, 'slow')));
    await settleMany();
    expect(active).toBe(3);
    expect(await scheduler.counts()).toEqual({ waiting: 7, running: 3 });
    gate.resolve();
    await scheduler.drain();
    expect(most).toBe(3);
    expect(finished).toHaveLength(10);
  });

  it('without a `workers` option, 16 jobs run at once', async () => {
    const { clock, scheduler } = setup();
    const gate = deferred();
    let active = 0;
    let most = 0;
    scheduler.handle('slow', async () => {
      most = Math.max(most, ++active);
      await gate.promise;
      active--;
      return undefined;
    });
    await scheduler.schedule(...Array.from({ length: 20 }, (_, i) => at(`j${i}`, clock.now(), `g${i}`, 'slow')));
    await settleMany();
    expect(active).toBe(16);
    gate.resolve();
    await scheduler.drain();
    expect(most).toBe(16);
  });

  it('with many workers, jobs of different groups run side by side, never two of one group, each group in order', async () => {
    const { clock, scheduler } = setup({ workers: 8 });
    const active = new Set<string>();
    const overlaps: string[] = [];
    const order = new Map<string, number[]>();
    let most = 0;
    scheduler.handle('work', async (job) => {
      const { n } = job.data as { n: number };
      if (active.has(job.group)) overlaps.push(`${job.group} ${n}`);
      active.add(job.group);
      most = Math.max(most, active.size);
      order.set(job.group, [...(order.get(job.group) ?? []), n]);
      for (let i = 0; i < 1 + (n % 3); i++) await settle();
      active.delete(job.group);
      return undefined;
    });
    const jobs = Array.from({ length: 20 }, (_, n) => ({ kind: 'work', group: `g${n % 4}`, dueAt: clock.now() - (n % 3), data: { n } }));
    await scheduler.schedule(...jobs);
    await scheduler.drain();
    expect(overlaps).toEqual([]);
    expect(most).toBe(4);
    for (let g = 0; g < 4; g++) {
      const mine = jobs.filter((job) => job.group === `g${g}`);
      const expected = [...mine].sort((x, y) => x.dueAt - y.dueAt).map((job) => job.data.n);
      expect(order.get(`g${g}`)).toEqual(expected);
    }
  });
});

describe('follow-ups', () => {
  it("a handler's returned follow-up is scheduled as its job completes, and runs when due", async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    scheduler.handle('retrying', (job) => {
      ran.push(nameOf(job));
      return Promise.resolve(at('retry', clock.now() + 5000, job.group));
    });
    await scheduler.schedule(at('first', START + 1000, 'g', 'retrying'));
    clock.advance(1000);
    await afterJump();
    expect(ran).toEqual(['first']);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 0 });
    expect(await scheduler.nextDueAt()).toBe(START + 6000);
    clock.advance(4999);
    await afterJump();
    expect(ran).toEqual(['first']);
    clock.advance(1);
    await afterJump();
    expect(ran).toEqual(['first', 'retry']);
  });

  it('a follow-up due now runs in the same pass, chains of them included', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    scheduler.handle('chain', (job) => {
      const { name, left } = job.data as { name: string; left: number };
      ran.push(name);
      return Promise.resolve(left > 0 ? { ...job, data: { name: `${name}+`, left: left - 1 }, dueAt: clock.now() } : undefined);
    });
    await scheduler.schedule({ kind: 'chain', group: 'g', dueAt: START + 1000, data: { name: 'a', left: 3 } });
    clock.advance(1000);
    await afterJump();
    expect(ran).toEqual(['a', 'a+', 'a++', 'a+++']);
    expect(await scheduler.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('a follow-up due before the jobs waiting in its group runs before them', async () => {
    const { clock, scheduler, ran } = setup();
    scheduler.handle('retrying', (job) => {
      ran.push(nameOf(job));
      return Promise.resolve(at('retry', clock.now(), job.group));
    });
    await scheduler.schedule(at('first', START, 'g', 'retrying'), at('waiting', START + 10, 'g'));
    await scheduler.drain();
    clock.advance(10);
    await scheduler.drain();
    expect(ran).toEqual(['first', 'retry', 'waiting']);
  });

  it('a job that schedules another job due now through the scheduler sees it run in the same pass', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    scheduler.handle('parent', async () => {
      ran.push('parent');
      await scheduler.schedule(at('child', clock.now()));
      return undefined;
    });
    await scheduler.schedule(at('parent', START + 1000, 'parent', 'parent'));
    clock.advance(1000);
    await afterJump();
    expect(ran).toEqual(['parent', 'child']);
  });

  it('a job that schedules a later job through the scheduler leaves it waiting for the clock', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    scheduler.handle('parent', async () => {
      ran.push('parent');
      await scheduler.schedule(at('later', clock.now() + 5000));
      return undefined;
    });
    await scheduler.schedule(at('parent', START + 1000, 'parent', 'parent'));
    clock.advance(1000);
    await afterJump();
    expect(ran).toEqual(['parent']);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 0 });
    clock.advance(5000);
    await afterJump();
    expect(ran).toEqual(['parent', 'later']);
  });
});

describe('idle, drain and clear', () => {
  it('idle() resolves at once when nothing runs', async () => {
    const { scheduler } = setup();
    await scheduler.schedule(at('later', START + 1000));
    expect(await isSettled(scheduler.idle())).toBe(true);
  });

  it('idle() resolves only after the running job has finished', async () => {
    const { clock, scheduler } = setup();
    const gate = deferred();
    let finished = false;
    scheduler.handle('slow', async () => {
      await gate.promise;
      finished = true;
      return undefined;
    });
    await scheduler.schedule(at('slow', clock.now(), 'g', 'slow'));
    const idle = scheduler.idle();
    expect(await isSettled(idle)).toBe(false);
    gate.resolve();
    await idle;
    expect(finished).toBe(true);
  });

  it('drain resolves only when nothing due is left: what runs, what falls due meanwhile and follow-ups due now', async () => {
    const { clock, scheduler, ran } = setup({ workers: 2 });
    const gate = deferred();
    scheduler.handle('slow', async (job) => {
      await gate.promise;
      ran.push(nameOf(job));
      return at(`${nameOf(job)}-retry`, clock.now(), job.group);
    });
    await scheduler.schedule(at('slow', clock.now(), 'a', 'slow'), at('a2', clock.now(), 'a'), at('b', clock.now(), 'b'));
    await scheduler.schedule(at('not-due', clock.now() + 1));
    const drained = scheduler.drain();
    expect(await isSettled(drained)).toBe(false);
    gate.resolve();
    await drained;
    expect(ran.sort()).toEqual(['a2', 'b', 'slow', 'slow-retry']);
    expect(await scheduler.nextDueAt()).toBe(START + 1);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 0 });
  });

  it('drain runs the jobs that fell due in the queue, those another replica scheduled included', async () => {
    const { clock, queue, scheduler, ran } = setup();
    await queue.schedule([at('theirs', clock.now() - 5, 'g'), at('theirs-too', clock.now(), 'g')]);
    await scheduler.drain();
    expect(ran).toEqual(['theirs', 'theirs-too']);
  });

  it('drain with nothing due resolves at once', async () => {
    const { scheduler } = setup();
    await scheduler.schedule(at('later', START + 1000));
    expect(await isSettled(scheduler.drain())).toBe(true);
  });

  it('clear() drops every waiting job: none of them runs, however far the clock jumps', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    await scheduler.schedule(at('a', START + 1000), at('b', START + 2000));
    await scheduler.nextAttempt('msg-1');
    await scheduler.clear();
    expect(await scheduler.counts()).toEqual({ waiting: 0, running: 0 });
    expect(await scheduler.nextDueAt()).toBeUndefined();
    expect(await scheduler.nextAttempt('msg-1')).toBe(1);
    clock.advance(5000);
    await afterJump();
    expect(ran).toEqual([]);
  });

  it('clear() waits for the running jobs to finish, then drops every job, their follow-ups included', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    const gate = deferred();
    scheduler.handle('slow', async (job) => {
      await gate.promise;
      ran.push(nameOf(job));
      return at('follow-up', clock.now() + 1000, job.group);
    });
    await scheduler.schedule(at('slow', clock.now(), 'a', 'slow'), at('later', clock.now() + 1000, 'b'));
    await settleMany();
    const cleared = scheduler.clear();
    expect(await isSettled(cleared)).toBe(false);
    gate.resolve();
    await cleared;
    expect(ran).toEqual(['slow']);
    expect(await scheduler.counts()).toEqual({ waiting: 0, running: 0 });
    clock.advance(10_000);
    await afterJump();
    expect(ran).toEqual(['slow']);
  });

  it('clear() drops the jobs due behind a running one: they do not run', async () => {
    const { clock, scheduler, ran } = setup();
    const gate = deferred();
    scheduler.handle('slow', async (job) => {
      await gate.promise;
      ran.push(nameOf(job));
      return undefined;
    });
    await scheduler.schedule(at('slow', clock.now(), 'g', 'slow'), at('behind', clock.now(), 'g'));
    await settleMany();
    const cleared = scheduler.clear();
    gate.resolve();
    await cleared;
    await scheduler.idle();
    expect(ran).toEqual(['slow']);
  });

  it('after clear(), new jobs are scheduled and run as before', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    await scheduler.schedule(at('old', START + 1000));
    await scheduler.clear();
    await scheduler.schedule(at('new', START + 1000));
    clock.advance(1000);
    await afterJump();
    expect(ran).toEqual(['new']);
  });
});

describe('stop', () => {
  it('after stop(), a job due now does not run, even when the clock jumps', async () => {
    const { clock, scheduler, ran, afterJump } = setup();
    scheduler.stop();
    await scheduler.schedule(at('now', clock.now()), at('later', START + 1000));
    clock.advance(5000);
    await afterJump();
    await scheduler.runDue();
    expect(ran).toEqual([]);
  });

  it('stop() lets the running job finish and its group wait', async () => {
    const { clock, scheduler, ran } = setup();
    const gate = deferred();
    scheduler.handle('slow', async (job) => {
      await gate.promise;
      ran.push(nameOf(job));
      return undefined;
    });
    await scheduler.schedule(at('slow', clock.now(), 'g', 'slow'), at('next', clock.now(), 'g'));
    await settleMany();
    scheduler.stop();
    gate.resolve();
    await scheduler.idle();
    expect(ran).toEqual(['slow']);
    expect(await scheduler.counts()).toEqual({ waiting: 1, running: 0 });
  });
});

/** A memory queue that counts renewals and can fail its next claims (a queue out of reach). */
class TestQueue extends MemoryJobQueue {
  renewals = 0;
  claims = 0;
  failNextClaims = 0;

  override renew(job: ClaimedJob): Promise<boolean> {
    this.renewals++;
    return super.renew(job);
  }

  override claim(now: number, claim: string): Promise<ClaimedJob | undefined> {
    this.claims++;
    if (this.failNextClaims > 0) {
      this.failNextClaims--;
      return Promise.reject(new Error('queue out of reach'));
    }
    return super.claim(now, claim);
  }
}

describe('scheduler on a running clock (fake timers)', () => {
  function runningSetup(options: { queue?: JobQueue; leaseMs?: number } = {}) {
    jest.useFakeTimers({ now: START });
    return setup({ ...options, clock: createClock({ start: START, realNow: () => Date.now() }) });
  }

  it('a job runs by itself when its time comes', async () => {
    const { scheduler, ran } = runningSetup();
    await scheduler.schedule(at('a', START + 1000));
    await jest.advanceTimersByTimeAsync(999);
    expect(ran).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
  });

  it('jobs due at different times each run when their time comes, an earlier one scheduled later included', async () => {
    const { scheduler, ran } = runningSetup();
    await scheduler.schedule(at('late', START + 3000));
    await scheduler.schedule(at('early', START + 1000));
    await jest.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual(['early']);
    await jest.advanceTimersByTimeAsync(2000);
    expect(ran).toEqual(['early', 'late']);
  });

  it("a handler's follow-up runs by itself when due", async () => {
    const { clock, scheduler, ran } = runningSetup();
    scheduler.handle('retrying', (job) => {
      ran.push(nameOf(job));
      return Promise.resolve(at('retry', clock.now() + 5000, job.group));
    });
    await scheduler.schedule(at('first', START + 1000, 'g', 'retrying'));
    await jest.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual(['first']);
    await jest.advanceTimersByTimeAsync(4999);
    expect(ran).toEqual(['first']);
    await jest.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['first', 'retry']);
  });

  it('poll arms the timer for a job another replica put in the queue', async () => {
    const { queue, scheduler, ran } = runningSetup();
    await queue.schedule([at('theirs', START + 1000)]);
    await jest.advanceTimersByTimeAsync(2000);
    expect(ran).toEqual([]);
    await scheduler.poll();
    expect(ran).toEqual(['theirs']);
    await queue.schedule([at('theirs-later', START + 5000)]);
    await scheduler.poll();
    await jest.advanceTimersByTimeAsync(3000);
    expect(ran).toEqual(['theirs', 'theirs-later']);
  });

  it("a running job's claim is renewed (three times per lease) until it ends", async () => {
    const queue = new TestQueue();
    const { clock, scheduler } = runningSetup({ queue, leaseMs: 300 });
    const gate = deferred();
    scheduler.handle('slow', async () => {
      await gate.promise;
      return undefined;
    });
    await scheduler.schedule(at('slow', clock.now(), 'g', 'slow'));
    await jest.advanceTimersByTimeAsync(1000);
    expect(queue.renewals).toBeGreaterThanOrEqual(9);
    expect(queue.renewals).toBeLessThanOrEqual(10);
    gate.resolve();
    await scheduler.idle();
    const renewals = queue.renewals;
    await jest.advanceTimersByTimeAsync(1000);
    expect(queue.renewals).toBe(renewals);
  });

  it('a claim that fails (the queue out of reach) is reported and tried again a little later, not in a busy loop', async () => {
    const queue = new TestQueue();
    const { clock, scheduler, errors, ran } = runningSetup({ queue });
    queue.failNextClaims = 3;
    await scheduler.schedule(at('a', clock.now()));
    await jest.advanceTimersByTimeAsync(2000);
    expect(ran).toEqual(['a']);
    expect(errors).toHaveLength(3);
    expect(queue.claims).toBeLessThan(20);
  });

  it('after stop(), no timer fires: a pending job never runs', async () => {
    const { scheduler, ran } = runningSetup();
    await scheduler.schedule(at('a', START + 1000));
    scheduler.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    await scheduler.idle();
    expect(ran).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('after stop(), scheduling a new job arms no timer', async () => {
    const { scheduler, ran } = runningSetup();
    scheduler.stop();
    await scheduler.schedule(at('a', START + 1000));
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(ran).toEqual([]);
  });

  it('when the clock is frozen, then the waiting job does not run as real time passes', async () => {
    const { clock, scheduler, ran } = runningSetup();
    await scheduler.schedule(at('a', START + 1000));
    clock.freeze();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(ran).toEqual([]);
    clock.advance(1000);
    await jest.advanceTimersByTimeAsync(0);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
  });

  it('a job scheduled while the clock was frozen runs once the clock is unfrozen and its time comes', async () => {
    const { clock, scheduler, ran } = runningSetup();
    clock.freeze();
    await scheduler.schedule(at('a', START + 1000));
    await jest.advanceTimersByTimeAsync(5000);
    expect(ran).toEqual([]);
    clock.unfreeze();
    await jest.advanceTimersByTimeAsync(999);
    expect(ran).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
  });

  it('when the clock jumps ahead, then a job due later runs at once instead of waiting for its timer', async () => {
    const { clock, scheduler, ran } = runningSetup();
    await scheduler.schedule(at('a', START + 60_000));
    clock.advance(60_000);
    await jest.advanceTimersByTimeAsync(0);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
  });
});

describe('scheduler on a running clock (real time)', () => {
  it('a timer fires by itself: the job runs, not before its due time by the mock clock', async () => {
    const clock = createClock({ start: START });
    const { scheduler } = setup({ clock });
    const seen: number[] = [];
    const ran = new Promise<void>((resolve) =>
      scheduler.handle('timed', () => {
        seen.push(clock.now());
        resolve();
        return Promise.resolve(undefined);
      }),
    );
    const dueAt = clock.now() + 30;
    await scheduler.schedule(at('a', dueAt, 'g', 'timed'));
    await within('the job to run by its own timer (nothing else runs it)', ran);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThanOrEqual(dueAt);
  });
});

describe('mock clock', () => {
  it('a frozen clock started at an instant stays there', () => {
    let real = 1_000;
    const clock = createClock({ start: START, frozen: true, realNow: () => real });
    real += 60_000;
    expect(clock.now()).toBe(START);
    expect(clock.nowIso()).toBe('2025-03-10T12:00:00.000Z');
    expect(clock.frozen).toBe(true);
  });

  it('advancing a frozen clock moves it by exactly that much', () => {
    const clock = createClock({ start: START, frozen: true });
    clock.advance(24 * 60 * 60 * 1000);
    expect(clock.nowIso()).toBe('2025-03-11T12:00:00.000Z');
  });

  it('a running clock started at an instant moves with real time from there', () => {
    let real = 5_000;
    const clock = createClock({ start: START, realNow: () => real });
    expect(clock.now()).toBe(START);
    real += 1234;
    expect(clock.now()).toBe(START + 1234);
    clock.advance(1000);
    expect(clock.now()).toBe(START + 2234);
  });

  it('freezing stops time where it stands, and unfreezing lets it run on from there', () => {
    let real = 0;
    const clock = createClock({ start: START, realNow: () => real });
    real = 100;
    clock.freeze();
    real = 10_000;
    expect(clock.now()).toBe(START + 100);
    clock.unfreeze();
    expect(clock.frozen).toBe(false);
    expect(clock.now()).toBe(START + 100);
    real = 10_050;
    expect(clock.now()).toBe(START + 150);
  });

  it('freezing at a given instant sets the clock there', () => {
    const clock = createClock({ start: START });
    clock.freeze(START + 30_000);
    expect(clock.now()).toBe(START + 30_000);
  });

  it('jump listeners hear every advance and freeze', () => {
    const clock = createClock({ start: START, frozen: true });
    let jumps = 0;
    clock.onJump(() => jumps++);
    clock.advance(1);
    clock.freeze(START + 10);
    expect(jumps).toBe(2);
  });
});
