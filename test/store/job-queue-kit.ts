// What the JobQueue contract's parts and the queue tests share: jobs told apart by their data
// (`{ name }`), claim tokens, and claiming or running everything due.
import { expect } from '@jest/globals';
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
