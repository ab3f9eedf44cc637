import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { createClock, type ControllableClock } from '../../mock/clock';
import { Scheduler } from '../../mock/jobs/scheduler';

const START = Date.parse('2025-03-10T12:00:00.000Z');

const schedulers: Scheduler[] = [];

afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.stop();
  jest.useRealTimers();
});

function setup(options: { frozen?: boolean; clock?: ControllableClock } = {}) {
  const clock = options.clock ?? createClock({ start: START, frozen: options.frozen ?? true });
  const errors: unknown[] = [];
  const scheduler = new Scheduler(clock, (error) => errors.push(error));
  schedulers.push(scheduler);
  const ran: string[] = [];
  const job = (name: string) => () => {
    ran.push(name);
  };
  return { clock, scheduler, errors, ran, job };
}

/** Lets pending promise callbacks and immediate callbacks run (real timers only). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('scheduler on a frozen clock', () => {
  it('when the clock jumps past several jobs, then they run in due order, ties in the order scheduled', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.at(START + 3000, job('c'));
    scheduler.at(START + 1000, job('a1'));
    scheduler.at(START + 2000, job('b'));
    scheduler.at(START + 1000, job('a2'));
    clock.advance(5000);
    await scheduler.idle();
    expect(ran).toEqual(['a1', 'a2', 'b', 'c']);
    expect(scheduler.pending).toBe(0);
  });

  it('when the clock jumps part of the way, then only the jobs that fell due run', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.in(1000, job('a'));
    scheduler.in(2000, job('b'));
    scheduler.in(3000, job('c'));
    clock.advance(1500);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
    expect(scheduler.pending).toBe(2);
    clock.advance(500);
    await scheduler.idle();
    expect(ran).toEqual(['a', 'b']);
  });

  it('while the clock stays frozen and does not jump, nothing runs, however long we wait', async () => {
    const { scheduler, ran, job } = setup();
    scheduler.in(1, job('a'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await settle();
    expect(ran).toEqual([]);
    expect(scheduler.pending).toBe(1);
  });

  it('a job scheduled for the current instant runs without any jump', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.at(clock.now(), job('now'));
    await scheduler.idle();
    expect(ran).toEqual(['now']);
  });

  it('a job scheduled in 0 ms, or in the past, runs without any jump', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.in(0, job('zero'));
    scheduler.at(clock.now() - 60_000, job('past'));
    await settle();
    await scheduler.idle();
    expect(ran.sort()).toEqual(['past', 'zero']);
  });

  it('a job due at exactly the new time runs after a jump to it', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.in(5000, job('exact'));
    clock.advance(4999);
    await scheduler.idle();
    expect(ran).toEqual([]);
    clock.advance(1);
    await scheduler.idle();
    expect(ran).toEqual(['exact']);
  });

  it('a throwing job is reported to onError and does not stop the jobs after it', async () => {
    const { clock, scheduler, errors, ran, job } = setup();
    const boom = new Error('boom');
    const rejected = new Error('rejected');
    scheduler.in(1000, job('a'));
    scheduler.in(2000, () => {
      throw boom;
    });
    scheduler.in(3000, () => Promise.reject(rejected));
    scheduler.in(4000, job('d'));
    clock.advance(5000);
    await scheduler.idle();
    expect(ran).toEqual(['a', 'd']);
    expect(errors).toEqual([boom, rejected]);
  });

  it('a scheduler whose job threw keeps working for later jobs', async () => {
    const { clock, scheduler, errors, ran, job } = setup();
    scheduler.in(1000, () => {
      throw new Error('first');
    });
    clock.advance(1000);
    await scheduler.idle();
    scheduler.in(1000, job('later'));
    clock.advance(1000);
    await scheduler.idle();
    expect(ran).toEqual(['later']);
    expect(errors).toHaveLength(1);
  });

  it('idle() resolves only after the running job has finished', async () => {
    const { clock, scheduler } = setup();
    const gate = deferred();
    let finished = false;
    scheduler.in(1000, async () => {
      await gate.promise;
      finished = true;
    });
    clock.advance(1000);
    let idle = false;
    const waiting = scheduler.idle().then(() => {
      idle = true;
    });
    await settle();
    expect(idle).toBe(false);
    gate.resolve();
    await waiting;
    expect(finished).toBe(true);
  });

  it('jobs run one at a time: a slow job finishes before the next starts', async () => {
    const { clock, scheduler } = setup();
    const log: string[] = [];
    scheduler.in(1000, async () => {
      log.push('slow:start');
      await settle();
      log.push('slow:end');
    });
    scheduler.in(1000, () => {
      log.push('fast');
    });
    clock.advance(1000);
    await scheduler.idle();
    expect(log).toEqual(['slow:start', 'slow:end', 'fast']);
  });

  it('a job that schedules another job due now sees it run in the same pass', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.in(1000, () => {
      ran.push('parent');
      scheduler.at(clock.now(), job('child'));
    });
    clock.advance(1000);
    await scheduler.idle();
    await scheduler.idle();
    expect(ran).toEqual(['parent', 'child']);
  });

  it('a job that schedules a later job leaves it waiting for the clock', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.in(1000, () => {
      ran.push('parent');
      scheduler.in(5000, job('retry'));
    });
    clock.advance(1000);
    await scheduler.idle();
    expect(ran).toEqual(['parent']);
    expect(scheduler.pending).toBe(1);
    clock.advance(5000);
    await scheduler.idle();
    expect(ran).toEqual(['parent', 'retry']);
  });

  it('clear() drops every pending job', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.in(1000, job('a'));
    scheduler.in(2000, job('b'));
    scheduler.clear();
    expect(scheduler.pending).toBe(0);
    clock.advance(5000);
    await scheduler.idle();
    expect(ran).toEqual([]);
  });

  it('after stop(), a job due now does not run, even when the clock jumps', async () => {
    const { clock, scheduler, ran, job } = setup();
    scheduler.stop();
    scheduler.at(clock.now(), job('now'));
    scheduler.in(1000, job('later'));
    clock.advance(5000);
    await settle();
    await scheduler.idle();
    expect(ran).toEqual([]);
  });
});

describe('scheduler on a running clock (fake timers)', () => {
  function runningSetup() {
    jest.useFakeTimers({ now: START });
    return setup({ clock: createClock({ start: START, realNow: () => Date.now() }) });
  }

  it('a job runs by itself when its time comes', async () => {
    const { scheduler, ran, job } = runningSetup();
    scheduler.in(1000, job('a'));
    await jest.advanceTimersByTimeAsync(999);
    expect(ran).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
  });

  it('after stop(), no timer fires: a pending job never runs', async () => {
    const { scheduler, ran, job } = runningSetup();
    scheduler.in(1000, job('a'));
    scheduler.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    await scheduler.idle();
    expect(ran).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('after stop(), scheduling a new job arms no timer', async () => {
    const { scheduler, ran, job } = runningSetup();
    scheduler.stop();
    scheduler.in(1000, job('a'));
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(ran).toEqual([]);
  });

  it('when the clock is frozen, then the waiting job does not run as real time passes', async () => {
    const { clock, scheduler, ran, job } = runningSetup();
    scheduler.in(1000, job('a'));
    clock.freeze();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(ran).toEqual([]);
    clock.advance(1000);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
  });

  it('a job scheduled while the clock was frozen runs once the clock is unfrozen and its time comes', async () => {
    const { clock, scheduler, ran, job } = runningSetup();
    clock.freeze();
    scheduler.in(1000, job('a'));
    clock.unfreeze();
    await jest.advanceTimersByTimeAsync(2000);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
  });

  it('when the clock jumps ahead, then a job due later runs at once instead of waiting for its timer', async () => {
    const { clock, scheduler, ran, job } = runningSetup();
    scheduler.in(60_000, job('a'));
    clock.advance(60_000);
    await scheduler.idle();
    expect(ran).toEqual(['a']);
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
