// The Redis job queue: the shared JobQueue contract (job-queue-contract.ts) on RedisJobQueue (a
// real redis-server, one per file, each test under its own key prefix), then what only the Redis
// queue promises: two queues on one prefix are two replicas of one queue (a
// job claimed once, a group run one job at a time, whoever claims), a claim is a lease in real
// time that another replica takes over once it runs out, and prefixes keep queues apart.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ClaimedJob, JobSpec } from '../../mock/store';
import { connectRedis, type RedisClient, RedisJobQueue } from '../../mock/store/redis';
import { describeWithRedis, uniquePrefix } from '../support/redis-suite';
import { jobQueueContract } from './job-queue-contract';
import { job, nameOf, runAll, T0, token } from './job-queue-kit';
import { HANG_GUARD_MS, until } from '../support/waits';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The lease of the contract's Redis queues: long enough never to run out during a test. */
const LONG_LEASE_MS = 60_000;

describeWithRedis('RedisJobQueue', (redis) => {
  const clients = new Map<RedisJobQueue, RedisClient>();
  /** A queue on its own connection (as a replica has), under `prefix` (a fresh one by default). */
  async function open(prefix = uniquePrefix(), leaseMs = LONG_LEASE_MS): Promise<RedisJobQueue> {
    const client = await connectRedis({ url: redis().url, name: 'job-queue-test' });
    const queue = new RedisJobQueue(client, prefix, leaseMs);
    clients.set(queue, client);
    return queue;
  }
  async function close(queue: RedisJobQueue): Promise<void> {
    const client = clients.get(queue);
    clients.delete(queue);
    await client?.quit();
  }

  jobQueueContract('the JobQueue contract', () => open(), close);

  describe('on a Redis shared by several queues', () => {
    const opened: RedisJobQueue[] = [];
    const tracked = async (prefix?: string, leaseMs?: number) => {
      const queue = await open(prefix, leaseMs);
      opened.push(queue);
      return queue;
    };
    /** Two queues on one prefix: the queue of two replicas of one mock. */
    const replicas = async (leaseMs = LONG_LEASE_MS) => {
      const prefix = uniquePrefix();
      return [await tracked(prefix, leaseMs), await tracked(prefix, leaseMs)] as const;
    };
    afterEach(async () => {
      for (const queue of opened.splice(0)) await close(queue);
    });

    /** Asks `claim` every 20 ms until it answers a job (only a hang guard ends it, naming `what`). */
    async function claimOnce(what: string, claim: () => Promise<ClaimedJob | undefined>): Promise<ClaimedJob> {
      return (await until(what, claim, (claimed) => claimed !== undefined))!;
    }

    it('a job scheduled by one replica is claimed by the other, and completed there', async () => {
      const [one, two] = await replicas();
      await one.schedule([job('a', 'g', 0)]);
      expect(await two.nextDueAt()).toBe(T0);
      const a = (await two.claim(T0, token()))!;
      expect(nameOf(a)).toBe('a');
      expect(await one.counts()).toEqual({ waiting: 0, running: 1 });
      expect(await one.claim(T0, token())).toBeUndefined();
      expect(await two.complete(a, job('retry', 'g', 10))).toBe(true);
      expect(await one.nextDueAt()).toBe(T0 + 10);
    });

    it('200 jobs in 10 groups, 8 claimers on each of two replicas: each job claimed once, one per group at a time, in order', async () => {
      const [one, two] = await replicas();
      const total = 200;
      // Due times rise with n, several jobs share one, and every group has jobs of equal due time.
      const jobs: JobSpec[] = Array.from({ length: total }, (_, n) => ({
        kind: 'k',
        group: `g${n % 10}`,
        dueAt: T0 + Math.floor(n / 25),
        data: { n },
      }));
      await one.schedule(jobs.slice(0, total / 2));
      await two.schedule(jobs.slice(total / 2));

      const times = new Map<number, number>();
      const running = new Set<string>();
      const overlaps: string[] = [];
      const order = new Map<string, number[]>();
      const lostCompletes: number[] = [];
      let done = 0;
      // The claimers go on until every job is done, however long that takes; only a hang ends them.
      const started = Date.now();
      const claimer = async (queue: RedisJobQueue) => {
        while (done < total) {
          if (Date.now() - started > HANG_GUARD_MS)
            throw new Error(`gave up waiting for ${total} jobs to be run: ${done} done after ${HANG_GUARD_MS} ms (hang guard)`);
          const claimed = await queue.claim(T0 + 1000, token());
          if (!claimed) {
            await sleep(1);
            continue;
          }
          const { n } = claimed.data as { n: number };
          times.set(n, (times.get(n) ?? 0) + 1);
          if (running.has(claimed.group)) overlaps.push(`${claimed.group} (job ${n})`);
          running.add(claimed.group);
          order.set(claimed.group, [...(order.get(claimed.group) ?? []), n]);
          // Hold the claim a moment, so that other claimers try the group meanwhile.
          await new Promise((resolve) => setImmediate(resolve));
          // Released here before Redis releases the group (complete): nobody can claim the group in between.
          running.delete(claimed.group);
          if (!(await queue.complete(claimed))) lostCompletes.push(n);
          done++;
        }
      };
      await Promise.all([...Array.from({ length: 8 }, () => claimer(one)), ...Array.from({ length: 8 }, () => claimer(two))]);

      expect(done).toBe(total);
      expect([...times.entries()].filter(([, count]) => count !== 1)).toEqual([]);
      expect(times.size).toBe(total);
      expect(overlaps).toEqual([]);
      expect(lostCompletes).toEqual([]);
      for (let g = 0; g < 10; g++) {
        const expected = jobs.map((spec, n) => ({ spec, n })).filter(({ spec }) => spec.group === `g${g}`);
        expect(order.get(`g${g}`)).toEqual(expected.map(({ n }) => n));
      }
      expect(await one.counts()).toEqual({ waiting: 0, running: 0 });
    });

    it('while a claim holds, the other replica cannot claim the job nor the next of its group', async () => {
      const [one, two] = await replicas();
      await one.schedule([job('a', 'g', 0), job('b', 'g', 0)]);
      const a = (await one.claim(T0, token()))!;
      expect(await two.claim(T0 + 1e9, token())).toBeUndefined();
      expect(await two.counts()).toEqual({ waiting: 1, running: 1 });
      expect(await one.complete(a)).toBe(true);
      expect(nameOf(await two.claim(T0, token()))).toBe('b');
    });

    it("a claim not renewed is claimed by the other replica once its lease runs out; the first holder's complete is refused", async () => {
      const leaseMs = 300;
      const [one, two] = await replicas(leaseMs);
      await one.schedule([job('a', 'g', 0), job('b', 'g', 0)]);
      const started = Date.now();
      const first = (await one.claim(T0, token()))!;
      const again = await claimOnce('the other replica to claim the job once its lease ran out', () => two.claim(T0, token()));
      // No sooner than the lease (real time): a lower bound only, whatever the machine's speed.
      expect(Date.now() - started).toBeGreaterThanOrEqual(leaseMs - 20);
      // The same job, its group's first, under a new claim: its second run.
      expect(again).toEqual({ ...first, claim: again.claim, runs: 2 });
      expect(again.claim).not.toBe(first.claim);
      expect(await one.renew(first)).toBe(false);
      expect(await one.complete(first, job('retry of the lost claim', 'g', 0))).toBe(false);
      expect(await two.counts()).toEqual({ waiting: 1, running: 1 });
      expect(await two.complete(again)).toBe(true);
      expect(await runAll(one, T0)).toEqual(['b']);
    });

    it('renewing a claim keeps it past its lease: the other replica never gets it, and the holder completes it', async () => {
      const leaseMs = 2000;
      const [one, two] = await replicas(leaseMs);
      await one.schedule([job('a', 'g', 0)]);
      const a = (await one.claim(T0, token()))!;
      const renewed: boolean[] = [];
      const stolen: Array<ClaimedJob | undefined> = [];
      // Renewed every 100 ms for two leases of real time (the lease is Redis's clock): a stall of
      // the machine up to 1.9 s between two renewals is still within the lease.
      const end = Date.now() + 2 * leaseMs;
      while (Date.now() < end) {
        await sleep(100);
        renewed.push(await one.renew(a));
        stolen.push(await two.claim(T0, token()));
      }
      expect(renewed.every(Boolean)).toBe(true);
      expect(stolen.filter(Boolean)).toEqual([]);
      expect(await one.complete(a)).toBe(true);
      expect(await two.counts()).toEqual({ waiting: 0, running: 0 });
    });

    it('a lease that ran out is given back by a claim on either replica, even one with nothing else due', async () => {
      const [one, two] = await replicas(300);
      await one.schedule([job('a', 'g', 0), job('later', 'h', 60_000)]);
      await one.claim(T0, token());
      await sleep(400);
      // A claim at a time nothing is due still gives the lapsed job back to its group.
      expect(await two.claim(T0 - 1e9, token())).toBeUndefined();
      expect(await two.counts()).toEqual({ waiting: 2, running: 0 });
      expect(await two.nextDueAt()).toBe(T0);
    });

    it('attempts counted by one replica are seen by the other, also when both count at once', async () => {
      const [one, two] = await replicas();
      expect(await one.nextAttempt('msg-1')).toBe(1);
      expect(await two.nextAttempt('msg-1')).toBe(2);
      expect(await one.nextAttempt('msg-1')).toBe(3);
      const numbers = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).nextAttempt('msg-2')));
      expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    });

    it('a clear by one replica drops the claims the other holds', async () => {
      const [one, two] = await replicas();
      await one.schedule([job('a', 'g', 0)]);
      const a = (await one.claim(T0, token()))!;
      await two.clear();
      expect(await one.complete(a, job('retry', 'g', 0))).toBe(false);
      expect(await two.counts()).toEqual({ waiting: 0, running: 0 });
    });

    it("two prefixes on one Redis do not see each other's jobs, claims or attempts", async () => {
      const [one, two] = [await tracked(), await tracked()];
      await one.schedule([job('a', 'g', 0)]);
      await one.nextAttempt('msg-1');
      expect(await two.counts()).toEqual({ waiting: 0, running: 0 });
      expect(await two.nextDueAt()).toBeUndefined();
      expect(await two.claim(T0 + 1e9, token())).toBeUndefined();
      expect(await two.nextAttempt('msg-1')).toBe(1);
      await two.schedule([job('b', 'g', 0)]);
      const a = (await one.claim(T0, token()))!;
      expect(nameOf(await two.claim(T0, token()))).toBe('b');
      expect(await two.complete(a)).toBe(false);
      await two.clear();
      expect(await one.counts()).toEqual({ waiting: 0, running: 1 });
      expect(await one.complete(a)).toBe(true);
      expect(await one.nextAttempt('msg-1')).toBe(2);
    });

    it('every key the queue writes starts with its prefix and "s:job:"; clear removes them all, and only them', async () => {
      const client = await connectRedis({ url: redis().url, name: 'job-queue-test-keys' });
      try {
        const prefix = uniquePrefix();
        await client.set(`${prefix}s:other`, 'kept');
        const queue = await tracked(prefix);
        await queue.schedule([job('a', 'g', 0), job('b', 'g', 0), job('c', 'h', 5000)]);
        const a = (await queue.claim(T0, token()))!;
        await queue.complete(a, job('retry', 'g', 100));
        await queue.claim(T0, token());
        await queue.nextAttempt('msg-1');
        const written = (await client.keys(`${prefix}*`)).filter((key) => key !== `${prefix}s:other`);
        expect(written.length).toBeGreaterThan(0);
        expect(written.filter((key) => !key.startsWith(`${prefix}s:job:`))).toEqual([]);
        await queue.clear();
        expect(await client.keys(`${prefix}*`)).toEqual([`${prefix}s:other`]);
      } finally {
        client.disconnect();
      }
    });

    it('a long group id, a numeric one, and due times around 1e13 ms round-trip exactly', async () => {
      const queue = await tracked();
      const long = `subscription:${'x'.repeat(10_000)}:ü🚀`;
      const numeric = '123456789012345678901234567890';
      const E13 = 1e13;
      const specs: JobSpec[] = [
        { kind: 'k', group: long, dueAt: E13 + 1, data: { name: 'after' } },
        { kind: 'k', group: numeric, dueAt: E13, data: { name: 'at' } },
        { kind: 'k', group: 'other', dueAt: E13 - 1, data: { name: 'before' } },
      ];
      await queue.schedule(specs);
      expect(await queue.nextDueAt()).toBe(E13 - 1);
      const before = (await queue.claim(E13 - 1, token()))!;
      expect(before).toEqual({ ...specs[2], id: before.id, claim: before.claim, runs: 1 });
      expect(await queue.claim(E13 - 1, token())).toBeUndefined();
      expect(await queue.nextDueAt()).toBe(E13);
      const at = (await queue.claim(E13, token()))!;
      expect(at).toEqual({ ...specs[1], id: at.id, claim: at.claim, runs: 1 });
      expect(await queue.nextDueAt()).toBe(E13 + 1);
      expect(await queue.claim(E13, token())).toBeUndefined();
      const after = (await queue.claim(E13 + 1, token()))!;
      expect(after).toEqual({ ...specs[0], id: after.id, claim: after.claim, runs: 1 });
      expect(await queue.complete(after, { kind: 'k', group: long, dueAt: E13 + 3, data: 'next' })).toBe(true);
      expect(await queue.nextDueAt()).toBe(E13 + 3);
      expect(await queue.complete(at, { kind: 'k', group: numeric, dueAt: E13 + 2, data: 'next' })).toBe(true);
      expect(await queue.nextDueAt()).toBe(E13 + 2);
      expect(await queue.claim(E13 + 2, token())).toMatchObject({ group: numeric, dueAt: E13 + 2 });
      expect(await queue.claim(E13 + 3, token())).toMatchObject({ group: long, dueAt: E13 + 3 });
    });
  });
});
