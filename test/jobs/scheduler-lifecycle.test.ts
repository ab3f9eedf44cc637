// The Scheduler's life (mock/jobs/scheduler.ts): idle, drain and clear, stop, and the scheduler
// on a running clock (jest's fake timers, and one test on real time that asserts nothing about
// how long it took) and on the mock clock's jumps.
import { describe, expect, it, jest } from '@jest/globals';
import { createClock } from '../../mock/clock';
import { type ClaimedJob, type JobQueue, MemoryJobQueue } from '../../mock/store';
import { within } from '../support/waits';
import { at, deferred, isSettled, nameOf, settleMany, setup, START } from './support';

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
