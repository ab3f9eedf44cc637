// The rules every JobQueue keeps (mock/store/job-queue.ts), written once and run against each
// implementation (memory-job-queue.test.ts: MemoryJobQueue; redis-job-queue.test.ts: RedisJobQueue
// on a real redis-server).
// Times are mock times handed to `claim`: nothing here waits for real time, so these tests say
// nothing about leases (the Redis-only tests in redis-job-queue.test.ts do). Jobs are told apart by
// their data (`{ name }`); ids are the queue's own and only compared with each other. Completing,
// renewing, clearing, counts, attempts and data: job-queue-life-contract.ts.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { JobQueue, JobSpec } from '../../mock/store';
import { jobQueueLifeContract } from './job-queue-life-contract';

import { claimAll, job, nameOf, runAll, T0, token } from './job-queue-kit';

export function jobQueueContract<Q extends JobQueue>(
  name: string,
  makeQueue: () => Promise<Q>,
  dispose?: (queue: Q) => Promise<void>,
): void {
  describe(name, () => {
    const opened: Q[] = [];
    async function fresh(): Promise<Q> {
      const queue = await makeQueue();
      opened.push(queue);
      return queue;
    }
    afterEach(async () => {
      for (const queue of opened.splice(0)) await dispose?.(queue);
    });

    describe('due time', () => {
      it('an empty queue has nothing to claim and no next due time', async () => {
        const queue = await fresh();
        expect(await queue.claim(T0 + 1e9, token())).toBeUndefined();
        expect(await queue.nextDueAt()).toBeUndefined();
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
      });

      it('nothing is claimed before it is due by the mock time given to claim, and it is at exactly its due time', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 1000)]);
        expect(await queue.claim(T0, token())).toBeUndefined();
        expect(await queue.claim(T0 + 999, token())).toBeUndefined();
        expect(await queue.counts()).toEqual({ waiting: 1, running: 0 });
        expect(nameOf(await queue.claim(T0 + 1000, token()))).toBe('a');
      });

      it('a job due in the past is claimable at once', async () => {
        const queue = await fresh();
        await queue.schedule([job('old', 'g', -60_000)]);
        expect(nameOf(await queue.claim(T0, token()))).toBe('old');
      });

      it('a claimed job is the job as scheduled, with an id and the token of its claim', async () => {
        const queue = await fresh();
        const spec: JobSpec = { kind: 'deliver', group: 'deliver:sub-1', dueAt: T0 + 5, data: { name: 'a', attempt: 2 } };
        await queue.schedule([spec]);
        const claim = token();
        const claimed = await queue.claim(T0 + 5, claim);
        expect(claimed).toEqual({ ...spec, id: expect.any(String), claim, runs: 1 });
      });

      it('due jobs are claimed in due order, ties in the order scheduled', async () => {
        const queue = await fresh();
        await queue.schedule([job('c', 'g3', 3000), job('a1', 'g1', 1000)]);
        await queue.schedule([job('b', 'g2', 2000), job('a2', 'g4', 1000), job('a3', 'g5', 1000)]);
        expect((await claimAll(queue, T0 + 5000)).map(nameOf)).toEqual(['a1', 'a2', 'a3', 'b', 'c']);
      });

      it('only the jobs due by the time given are claimed; later ones wait for a later time', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g1', 1000), job('b', 'g2', 2000), job('c', 'g3', 3000)]);
        expect((await claimAll(queue, T0 + 2500)).map(nameOf)).toEqual(['a', 'b']);
        expect((await claimAll(queue, T0 + 3000)).map(nameOf)).toEqual(['c']);
      });

      it('ids are distinct, and so are ids of jobs scheduled in one call', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g1', 0), job('b', 'g2', 0), job('c', 'g3', 0)]);
        await queue.schedule([job('d', 'g4', 0)]);
        const ids = (await claimAll(queue, T0)).map((claimed) => claimed.id);
        expect(new Set(ids).size).toBe(4);
      });

      it('nextDueAt is the earliest due time of a claimable job, due or not', async () => {
        const queue = await fresh();
        await queue.schedule([job('c', 'g3', 3000), job('a', 'g1', 1000)]);
        expect(await queue.nextDueAt()).toBe(T0 + 1000);
        await queue.schedule([job('early', 'g2', 500)]);
        expect(await queue.nextDueAt()).toBe(T0 + 500);
        await queue.schedule([job('late', 'g4', 9000)]);
        expect(await queue.nextDueAt()).toBe(T0 + 500);
      });

      it('nextDueAt moves on as jobs are claimed, and is undefined once every job is claimed', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g1', 1000), job('b', 'g2', 2000)]);
        const a = await queue.claim(T0 + 1000, token());
        expect(await queue.nextDueAt()).toBe(T0 + 2000);
        await queue.claim(T0 + 2000, token());
        expect(await queue.nextDueAt()).toBeUndefined();
        expect(await queue.complete(a!)).toBe(true);
        expect(await queue.nextDueAt()).toBeUndefined();
      });

      it('nextDueAt leaves out the jobs of a group with a job running', async () => {
        const queue = await fresh();
        await queue.schedule([job('a1', 'a', 1000), job('a2', 'a', 2000), job('b', 'b', 5000)]);
        const a1 = await queue.claim(T0 + 1000, token());
        expect(await queue.nextDueAt()).toBe(T0 + 5000);
        await queue.complete(a1!);
        expect(await queue.nextDueAt()).toBe(T0 + 2000);
      });

      it('nextDueAt and counts only look: they claim nothing', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        await queue.nextDueAt();
        await queue.counts();
        expect(nameOf(await queue.claim(T0, token()))).toBe('a');
      });
    });

    describe('listing (GET /_mock/jobs)', () => {
      it('lists the first jobs by due time across groups, ties in scheduling order, the running one marked, with the total', async () => {
        const queue = await fresh();
        await queue.schedule([job('a2', 'a', 20), job('b1', 'b', 10), job('a1', 'a', 5), job('c1', 'c', 10), job('c2', 'c', 40)]);
        const running = await queue.claim(T0 + 5, token());
        expect(nameOf(running)).toBe('a1');
        const { total, jobs } = await queue.list(4);
        expect(total).toBe(5);
        expect(jobs.map((j) => [(j.data as { name: string }).name, j.running])).toEqual([
          ['a1', true],
          ['b1', false],
          ['c1', false],
          ['a2', false],
        ]);
        expect(jobs[0]).toMatchObject({ kind: 'test', group: 'a', dueAt: T0 + 5 });
      });

      it("lists one group's jobs alone, in order, with that group's total; listing claims nothing", async () => {
        const queue = await fresh();
        await queue.schedule([job('x', 'g', 30), job('y', 'h', 1), job('z', 'g', 2)]);
        const { total, jobs } = await queue.list(10, 'g');
        expect(total).toBe(2);
        expect(jobs.map((j) => (j.data as { name: string }).name)).toEqual(['z', 'x']);
        expect(await queue.list(10, 'nobody')).toEqual({ total: 0, jobs: [] });
        expect(nameOf(await queue.claim(T0 + 100, token()))).toBe('y');
      });

      it('a group whose head comes after the first N heads still counts in the total but not in the first N', async () => {
        const queue = await fresh();
        await queue.schedule([job('early', 'e', 1), job('late1', 'l', 50), job('late2', 'l', 60), job('mid', 'm', 10)]);
        const { total, jobs } = await queue.list(2);
        expect(total).toBe(4);
        expect(jobs.map((j) => (j.data as { name: string }).name)).toEqual(['early', 'mid']);
      });
    });

    describe('groups', () => {
      it('a job of a group waits while another job of that group runs, even when it is due', async () => {
        const queue = await fresh();
        await queue.schedule([job('a1', 'g', 1000), job('a2', 'g', 1000)]);
        expect(nameOf(await queue.claim(T0 + 1000, token()))).toBe('a1');
        expect(await queue.claim(T0 + 1e9, token())).toBeUndefined();
        expect(await queue.counts()).toEqual({ waiting: 1, running: 1 });
      });

      it("once a group's running job completes, the group's next job is claimable, in order", async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 1000), job('b', 'g', 2000), job('c', 'g', 3000)]);
        expect(await runAll(queue, T0 + 5000)).toEqual(['a', 'b', 'c']);
      });

      it('jobs of other groups are claimable while a group runs', async () => {
        const queue = await fresh();
        await queue.schedule([job('x1', 'x', 0), job('x2', 'x', 0), job('y1', 'y', 10), job('z1', 'z', 20), job('y2', 'y', 30)]);
        expect((await claimAll(queue, T0 + 100)).map(nameOf)).toEqual(['x1', 'y1', 'z1']);
      });

      it("a group's jobs run in due order even when scheduled out of it, ties in the order scheduled", async () => {
        const queue = await fresh();
        await queue.schedule([job('late', 'g', 3000), job('tie1', 'g', 1000)]);
        await queue.schedule([job('tie2', 'g', 1000), job('mid', 'g', 2000), job('tie3', 'g', 1000)]);
        expect(await runAll(queue, T0 + 5000)).toEqual(['tie1', 'tie2', 'tie3', 'mid', 'late']);
      });

      it('a group whose first job is not due yet holds back only itself', async () => {
        const queue = await fresh();
        await queue.schedule([job('later', 'g', 5000), job('now', 'h', 0)]);
        expect((await claimAll(queue, T0)).map(nameOf)).toEqual(['now']);
      });

      it("a job scheduled while its group runs waits for the group, even when it is due before the running one's due time", async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 1000), job('b', 'g', 3000)]);
        const a = await queue.claim(T0 + 1000, token());
        await queue.schedule([job('early', 'g', 0)]);
        expect(await queue.claim(T0 + 5000, token())).toBeUndefined();
        expect(await queue.complete(a!)).toBe(true);
        expect(await queue.nextDueAt()).toBe(T0);
        expect(await runAll(queue, T0 + 5000)).toEqual(['early', 'b']);
      });

      it('a follow-up scheduled in the same group earlier than the others waiting there comes first, by due time', async () => {
        const queue = await fresh();
        await queue.schedule([job('first', 'g', 0), job('waiting', 'g', 5000)]);
        const first = await queue.claim(T0, token());
        expect(await queue.complete(first!, job('retry', 'g', 2000))).toBe(true);
        expect(await queue.nextDueAt()).toBe(T0 + 2000);
        expect(await runAll(queue, T0 + 10_000)).toEqual(['retry', 'waiting']);
      });

      it('a follow-up later than the others waiting in its group comes after them', async () => {
        const queue = await fresh();
        await queue.schedule([job('first', 'g', 0), job('waiting', 'g', 1000)]);
        const first = await queue.claim(T0, token());
        await queue.complete(first!, job('retry', 'g', 2000));
        expect(await runAll(queue, T0 + 10_000)).toEqual(['waiting', 'retry']);
      });

      it('a follow-up due at the same time as a job waiting in its group comes after it (scheduled later)', async () => {
        const queue = await fresh();
        await queue.schedule([job('first', 'g', 0), job('waiting', 'g', 1000)]);
        const first = await queue.claim(T0, token());
        await queue.complete(first!, job('retry', 'g', 1000));
        expect(await runAll(queue, T0 + 10_000)).toEqual(['waiting', 'retry']);
      });

      it('many jobs of one group scheduled in one call keep their order', async () => {
        const queue = await fresh();
        const names = Array.from({ length: 100 }, (_, i) => `j${i}`);
        await queue.schedule(names.map((n) => job(n, 'g', 0)));
        expect(await runAll(queue, T0)).toEqual(names);
      });
    });

    describe('unique jobs', () => {
      it('a job with a unique key already scheduled is not scheduled again, even after the first one completed', async () => {
        const queue = await fresh();
        await queue.schedule([
          { ...job('first', 'g', 0), unique: 'message-1' },
          { ...job('twin', 'g', 0), unique: 'message-1' },
        ]);
        expect(await queue.counts()).toEqual({ waiting: 1, running: 0 });
        const first = (await queue.claim(T0, token()))!;
        expect(first.data).toEqual(job('first', 'g', 0).data);
        expect(await queue.complete(first)).toBe(true);
        await queue.schedule([{ ...job('again', 'g', 0), unique: 'message-1' }]);
        expect(await queue.claim(T0, token())).toBeUndefined();
      });

      it('a follow-up with a unique key already used is not scheduled; other keys and jobs without one are', async () => {
        const queue = await fresh();
        await queue.schedule([{ ...job('a', 'g', 0), unique: 'k1' }]);
        const a = (await queue.claim(T0, token()))!;
        expect(await queue.complete(a, { ...job('dup', 'g', 0), unique: 'k1' })).toBe(true);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
        await queue.schedule([{ ...job('b', 'g', 0), unique: 'k2' }, job('c', 'g', 0), job('c', 'g', 0)]);
        expect(await queue.counts()).toEqual({ waiting: 3, running: 0 });
      });

      it('clear forgets the unique keys: the same key can be scheduled again', async () => {
        const queue = await fresh();
        await queue.schedule([{ ...job('a', 'g', 0), unique: 'k' }]);
        await queue.clear();
        await queue.schedule([{ ...job('a', 'g', 0), unique: 'k' }]);
        expect(await queue.counts()).toEqual({ waiting: 1, running: 0 });
      });
    });

    jobQueueLifeContract(fresh);
  });
}
