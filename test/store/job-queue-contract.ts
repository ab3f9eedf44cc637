// The rules every JobQueue keeps (mock/store/job-queue.ts), written once and run against each
// implementation (job-queue.test.ts: MemoryJobQueue, and RedisJobQueue on a real redis-server).
// Times are mock times handed to `claim`: nothing here waits for real time, so these tests say
// nothing about leases (the Redis-only tests in job-queue.test.ts do). Jobs are told apart by
// their data (`{ name }`); ids are the queue's own and only compared with each other.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ClaimedJob, JobQueue, JobSpec } from '../../mock/store';

export const T0 = Date.parse('2025-03-10T00:00:00.000Z');

/** A job named `name` (its data), in `group`, due `at` ms after T0. */
export function job(name: string, group: string, at: number, kind = 'test'): JobSpec {
  return { kind, group, dueAt: T0 + at, data: { name } };
}

export const nameOf = (claimed: ClaimedJob | undefined) => (claimed?.data as { name?: string } | undefined)?.name;

let tokens = 0;
/** A claim token no other claim of this process uses. */
export const token = () => `claim-${process.pid}-${++tokens}`;

/** Claims until nothing more can be claimed at `now` (nothing is completed), and answers the names in claim order. */
export async function claimAll(queue: JobQueue, now: number): Promise<ClaimedJob[]> {
  const claimed: ClaimedJob[] = [];
  for (let next = await queue.claim(now, token()); next; next = await queue.claim(now, token())) claimed.push(next);
  return claimed;
}

/** Claims and completes one job at a time until nothing more is due at `now`; answers the names in the order run. */
export async function runAll(queue: JobQueue, now: number): Promise<string[]> {
  const names: string[] = [];
  for (let next = await queue.claim(now, token()); next; next = await queue.claim(now, token())) {
    names.push(nameOf(next) as string);
    expect(await queue.complete(next)).toBe(true);
  }
  return names;
}

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

    describe('complete and renew', () => {
      it('complete ends the job: it is not claimed again', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = await queue.claim(T0, token());
        expect(await queue.complete(a!)).toBe(true);
        expect(await queue.claim(T0 + 1e9, token())).toBeUndefined();
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
      });

      it('complete(job, next) ends the job and schedules its follow-up, claimable when due', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = await queue.claim(T0, token());
        expect(await queue.complete(a!, job('retry', 'g', 60_000, 'retry-kind'))).toBe(true);
        expect(await queue.counts()).toEqual({ waiting: 1, running: 0 });
        expect(await queue.nextDueAt()).toBe(T0 + 60_000);
        expect(await queue.claim(T0 + 59_999, token())).toBeUndefined();
        const retry = await queue.claim(T0 + 60_000, token());
        expect(retry).toMatchObject({ kind: 'retry-kind', group: 'g', dueAt: T0 + 60_000, data: { name: 'retry' } });
        expect(retry!.id).not.toBe(a!.id);
      });

      it('a follow-up due now is claimable at once, and one in another group too', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0), job('b', 'h', 0)]);
        const a = await queue.claim(T0, token());
        const b = await queue.claim(T0, token());
        await queue.complete(a!, job('a-next', 'g', 0));
        await queue.complete(b!, job('b-next', 'other', 0));
        expect(await runAll(queue, T0)).toEqual(['a-next', 'b-next']);
      });

      it('a complete with a wrong claim token returns false and changes nothing: the job runs on, no follow-up', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0), job('b', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        expect(await queue.complete({ ...a, claim: 'someone-else' }, job('retry', 'r', 0))).toBe(false);
        expect(await queue.counts()).toEqual({ waiting: 1, running: 1 });
        expect(await queue.claim(T0, token())).toBeUndefined();
        expect(await queue.complete(a)).toBe(true);
        expect(await runAll(queue, T0)).toEqual(['b']);
      });

      it('a complete naming a job that is not running returns false and changes nothing', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0), job('b', 'h', 5000)]);
        const a = (await queue.claim(T0, token()))!;
        expect(await queue.complete({ ...a, id: `${a.id}0`, group: 'h' }, job('retry', 'r', 0))).toBe(false);
        expect(await queue.counts()).toEqual({ waiting: 1, running: 1 });
        expect(await queue.nextDueAt()).toBe(T0 + 5000);
      });

      it('completing a job twice: the second complete returns false and schedules nothing', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        expect(await queue.complete(a)).toBe(true);
        expect(await queue.complete(a, job('retry', 'g', 0))).toBe(false);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
        expect(await queue.claim(T0, token())).toBeUndefined();
      });

      it("an earlier claim's token does not complete the job a later claim of the same group holds", async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0), job('b', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        await queue.complete(a);
        const b = (await queue.claim(T0, token()))!;
        expect(await queue.complete({ ...b, claim: a.claim })).toBe(false);
        expect(await queue.renew({ ...b, claim: a.claim })).toBe(false);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 1 });
        expect(await queue.complete(b)).toBe(true);
      });

      it('renew with the claim held returns true and keeps the job running', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        expect(await queue.renew(a)).toBe(true);
        expect(await queue.renew(a)).toBe(true);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 1 });
        expect(await queue.complete(a)).toBe(true);
      });

      it('renew with a wrong token, or after the job completed, returns false', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        expect(await queue.renew({ ...a, claim: 'someone-else' })).toBe(false);
        await queue.complete(a);
        expect(await queue.renew(a)).toBe(false);
      });

      it('a follow-up may be in any group and of any kind, the empty group included', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        expect(await queue.complete(a, job('next', '', 0, ''))).toBe(true);
        expect(await queue.counts()).toEqual({ waiting: 1, running: 0 });
        expect(await queue.claim(T0, token())).toMatchObject({ kind: '', group: '', data: { name: 'next' } });
      });
    });

    describe('clear', () => {
      it('clear drops every job, waiting or running', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0), job('b', 'g', 0), job('c', 'h', 5000)]);
        await queue.claim(T0, token());
        await queue.clear();
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
        expect(await queue.nextDueAt()).toBeUndefined();
        expect(await queue.claim(T0 + 1e9, token())).toBeUndefined();
      });

      it('a claim held across a clear is lost: its complete returns false and its follow-up is not scheduled', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        await queue.clear();
        expect(await queue.renew(a)).toBe(false);
        expect(await queue.complete(a, job('retry', 'g', 0))).toBe(false);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
        expect(await queue.claim(T0 + 1e9, token())).toBeUndefined();
      });

      it('after a clear, the group of a job that was running takes new jobs at once', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        await queue.claim(T0, token());
        await queue.clear();
        await queue.schedule([job('new', 'g', 0)]);
        expect(await queue.nextDueAt()).toBe(T0);
        expect(nameOf(await queue.claim(T0, token()))).toBe('new');
      });

      it('a claim held across a clear does not complete the job of that group scheduled after it', async () => {
        const queue = await fresh();
        await queue.schedule([job('old', 'g', 0)]);
        const old = (await queue.claim(T0, token()))!;
        await queue.clear();
        await queue.schedule([job('new', 'g', 0)]);
        const newer = (await queue.claim(T0, token()))!;
        expect(await queue.complete(old, job('old-retry', 'g', 0))).toBe(false);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 1 });
        expect(await queue.complete(newer)).toBe(true);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
      });

      it("clear drops the attempt counts: a message's attempts count from 1 again", async () => {
        const queue = await fresh();
        await queue.nextAttempt('msg-1');
        await queue.nextAttempt('msg-1');
        await queue.clear();
        expect(await queue.nextAttempt('msg-1')).toBe(1);
      });

      it('clearing an empty queue is fine, and the queue works after', async () => {
        const queue = await fresh();
        await queue.clear();
        await queue.schedule([job('a', 'g', 0)]);
        expect(await runAll(queue, T0)).toEqual(['a']);
      });
    });

    describe('counts', () => {
      it('counts tell the jobs waiting (due or not, held back or not) and running as jobs are scheduled, claimed, completed', async () => {
        const queue = await fresh();
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
        await queue.schedule([job('a1', 'a', 0), job('a2', 'a', 0), job('b', 'b', 0), job('later', 'c', 60_000)]);
        expect(await queue.counts()).toEqual({ waiting: 4, running: 0 });
        const a1 = (await queue.claim(T0, token()))!;
        expect(await queue.counts()).toEqual({ waiting: 3, running: 1 });
        const b = (await queue.claim(T0, token()))!;
        expect(await queue.counts()).toEqual({ waiting: 2, running: 2 });
        await queue.complete(a1);
        expect(await queue.counts()).toEqual({ waiting: 2, running: 1 });
        await queue.complete(b, job('b-retry', 'b', 30_000));
        expect(await queue.counts()).toEqual({ waiting: 3, running: 0 });
        await runAll(queue, T0 + 60_000);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
      });

      it('scheduling nothing changes nothing', async () => {
        const queue = await fresh();
        await queue.schedule([]);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
        expect(await queue.nextDueAt()).toBeUndefined();
      });
    });

    describe('attempts', () => {
      it('nextAttempt counts 1, 2, 3… per message id', async () => {
        const queue = await fresh();
        expect(await queue.nextAttempt('msg-1')).toBe(1);
        expect(await queue.nextAttempt('msg-1')).toBe(2);
        expect(await queue.nextAttempt('msg-2')).toBe(1);
        expect(await queue.nextAttempt('msg-1')).toBe(3);
        expect(await queue.nextAttempt('msg-2')).toBe(2);
      });

      it('50 attempts of one message counted at once get the numbers 1 to 50, each once', async () => {
        const queue = await fresh();
        const numbers = await Promise.all(Array.from({ length: 50 }, () => queue.nextAttempt('msg-1')));
        expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      });

      it('attempt counts are apart from the jobs: completing or clearing jobs is what matters, not scheduling', async () => {
        const queue = await fresh();
        await queue.nextAttempt('msg-1');
        await queue.schedule([job('a', 'g', 0)]);
        await runAll(queue, T0);
        expect(await queue.nextAttempt('msg-1')).toBe(2);
        expect(await queue.counts()).toEqual({ waiting: 0, running: 0 });
      });
    });

    describe('data', () => {
      it('data round-trips as JSON: nested objects, arrays, numbers, booleans and null', async () => {
        const queue = await fresh();
        const data = {
          message: { messageId: 'msg-1', payload: '{"a":1}', nested: { deep: [1, 2.5, -3, { x: null }], empty: {}, none: [] } },
          flags: [true, false],
          count: 0,
          big: 9007199254740991,
          small: 1e-7,
          nothing: null,
        };
        await queue.schedule([{ kind: 'k', group: 'g', dueAt: T0, data }]);
        expect((await queue.claim(T0, token()))?.data).toEqual(data);
      });

      it('strings with quotes, backslashes, new lines and unicode round-trip, in the data, the kind and the group', async () => {
        const queue = await fresh();
        const odd = 'quote " apostrophe \' backslash \\ slash / tab \t line\nfeed % %d %s $1 \u0000 é 中文 🚀 \u2028 end';
        const spec: JobSpec = { kind: `kind ${odd}`, group: `group ${odd}`, dueAt: T0, data: { text: odd, [odd]: odd, list: [odd] } };
        await queue.schedule([spec, { ...spec, data: 'second' }]);
        const claimed = (await queue.claim(T0, token()))!;
        expect(claimed).toEqual({ ...spec, id: claimed.id, claim: claimed.claim, runs: 1 });
        expect(await queue.claim(T0, token())).toBeUndefined();
        expect(await queue.complete(claimed, { ...spec, data: [odd] })).toBe(true);
        expect((await queue.claim(T0, token()))?.data).toBe('second');
      });

      it('a follow-up keeps its data as given', async () => {
        const queue = await fresh();
        await queue.schedule([job('a', 'g', 0)]);
        const a = (await queue.claim(T0, token()))!;
        const data = { message: { id: 'm', payload: '{"x":"y"}' }, attempt: 3, text: 'ünïcødé "q"' };
        await queue.complete(a, { kind: 'retry', group: 'g', dueAt: T0 + 1, data });
        expect((await queue.claim(T0 + 1, token()))?.data).toEqual(data);
      });

      it('plain values are data too: a string, a number, null', async () => {
        const queue = await fresh();
        await queue.schedule([
          { kind: 'k', group: 'a', dueAt: T0, data: 'text' },
          { kind: 'k', group: 'b', dueAt: T0, data: 42 },
          { kind: 'k', group: 'c', dueAt: T0, data: null },
        ]);
        expect((await claimAll(queue, T0)).map((claimed) => claimed.data)).toEqual(['text', 42, null]);
      });
    });
  });
}
