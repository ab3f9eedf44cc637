// The JobQueue contract, part two: completing and renewing claims, clearing, counts, attempts and
// job data (run for every queue by job-queue-contract.ts, which has the first part and the helpers).
import { describe, expect, it } from '@jest/globals';
import type { JobQueue, JobSpec } from '../../mock/store';
import { T0, job, nameOf, token, claimAll, runAll } from './job-queue-kit';

export function jobQueueLifeContract<Q extends JobQueue>(fresh: () => Promise<Q>): void {
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

    it('attemptsMade reads the count without counting (0 for a message never attempted)', async () => {
      const queue = await fresh();
      expect(await queue.attemptsMade('msg-1')).toBe(0);
      await queue.nextAttempt('msg-1');
      await queue.nextAttempt('msg-1');
      expect(await queue.attemptsMade('msg-1')).toBe(2);
      expect(await queue.attemptsMade('msg-1')).toBe(2);
      expect(await queue.attemptsMade('msg-2')).toBe(0);
    });

    it('a count set (a snapshot import) is continued by the next attempt, and clear drops it', async () => {
      const queue = await fresh();
      await queue.setAttemptsMade('msg-1', 3);
      expect(await queue.attemptsMade('msg-1')).toBe(3);
      expect(await queue.nextAttempt('msg-1')).toBe(4);
      await queue.clear();
      expect(await queue.attemptsMade('msg-1')).toBe(0);
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
  describe('dropping a group (one customer’s reset)', () => {
    it('drops every job of the group, due or not, and no other group’s', async () => {
      const queue = await fresh();
      await queue.schedule([job('a1', 'a', 0), job('a2', 'a', 5000), job('b1', 'b', 0)]);
      expect(await queue.dropGroup('a')).toBe(2);
      expect(await queue.counts()).toEqual({ waiting: 1, running: 0 });
      expect((await queue.list(10)).jobs.map((listed) => listed.group)).toEqual(['b']);
      expect(await runAll(queue, T0 + 1e9)).toEqual(['b1']);
    });

    it('leaves the running job, which completes as it would; nothing of the group follows it', async () => {
      const queue = await fresh();
      await queue.schedule([job('a1', 'a', 0), job('a2', 'a', 0)]);
      const running = (await queue.claim(T0, token()))!;
      expect(await queue.dropGroup('a')).toBe(1);
      expect(await queue.counts()).toEqual({ waiting: 0, running: 1 });
      expect(await queue.complete(running)).toBe(true);
      expect(await queue.claim(T0 + 1e9, token())).toBeUndefined();
      expect(await queue.nextDueAt()).toBeUndefined();
    });

    it('a group dropped takes new jobs again, claimable in order', async () => {
      const queue = await fresh();
      await queue.schedule([job('old', 'a', 0)]);
      expect(await queue.dropGroup('a')).toBe(1);
      expect(await queue.dropGroup('nothing-here')).toBe(0);
      await queue.schedule([job('new', 'a', 10)]);
      expect(await queue.nextDueAt()).toBe(T0 + 10);
      expect(await runAll(queue, T0 + 10)).toEqual(['new']);
    });
  });
}
