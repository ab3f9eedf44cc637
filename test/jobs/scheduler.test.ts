// The Scheduler (mock/jobs/scheduler.ts) on a MemoryJobQueue: handlers per kind, jobs run when
// the mock clock says they are due, up to `workers` at once and never two of one group, a
// handler's follow-up scheduled as its job completes. Time is the mock clock's: a frozen clock
// moves only by jumps, a running one is driven by jest's fake timers; the one test on real time
// waits for a timer with a wide margin and asserts nothing about how long it took.
import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import { at, deferred, nameOf, settle, settleMany, setup, START } from './support';

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
