// What the Redis-mode benchmark reads besides load: CPU seconds and read calls of a process
// (/proc), Redis's command statistics, the mock's scripts by SHA1, its connections, and key shapes.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { defineScripts, type RedisClient, RedisSharedState } from '../../mock/store/redis';

const CLOCK_TICK_S = 1 / clockTicks();

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** CPU seconds (user + system) a process has used: fields 14 and 15 of /proc/<pid>/stat. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_S;
}

/** Read system calls a process has made (/proc/<pid>/io syscr). */
export function readCalls(pid: number): number {
  return Number(/^syscr:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
}

export type CommandStats = Map<string, { calls: number; usec: number }>;

function parseCommandStats(info: string): CommandStats {
  const stats: CommandStats = new Map();
  for (const match of info.matchAll(/^cmdstat_(\S+?):calls=(\d+),usec=(\d+)/gm))
    stats.set(match[1] as string, { calls: Number(match[2]), usec: Number(match[3]) });
  return stats;
}

/** The mock's scripts by SHA1 (what EVALSHA names), read from its own definitions. */
export function scriptNames(): Map<string, string> {
  const names = new Map<string, string>();
  const recorder = {
    defineCommand: (name: string, definition: { lua: string }) => names.set(createHash('sha1').update(definition.lua).digest('hex'), name),
  } as unknown as RedisClient;
  defineScripts(recorder);
  new RedisSharedState(recorder, 'fos:');
  return names;
}

export interface CommandTally {
  requests: number;
  calls: Map<string, number>;
  usec: Map<string, number>;
  bytesIn: number;
  bytesOut: number;
}

/** Calls and time per command, and the bytes in and out so far (the bench's own INFO replies are a few kB a run). */
export async function redisStats(admin: Redis): Promise<{ commands: CommandStats; bytesIn: number; bytesOut: number }> {
  const commands = parseCommandStats(await admin.info('commandstats'));
  const stats = await admin.info('stats');
  const bytes = (field: string) => Number(new RegExp(`^${field}:(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
  return { commands, bytesIn: bytes('total_net_input_bytes'), bytesOut: bytes('total_net_output_bytes') };
}

export const add = (counts: Map<string, number>, key: string, by = 1) => counts.set(key, (counts.get(key) ?? 0) + by);

/** The addresses of the mock's own connections to Redis (named fos-mock:… by connection.ts). */
export async function mockClients(admin: Redis): Promise<Set<string>> {
  const list = (await admin.client('LIST')) as string;
  const addresses = new Set<string>();
  for (const line of list.split('\n')) {
    if (!/\bname=fos-mock/.test(line)) continue;
    const address = /\baddr=(\S+)/.exec(line)?.[1];
    if (address) addresses.add(address);
  }
  return addresses;
}

export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** A key with its ids (UUIDs, long numbers) replaced by `*`: `fos:s:bal:<uuid>` → `fos:s:bal:*`. */
export function keyShape(key: string): string {
  return key.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '*').replace(/\d{4,}/g, '*');
}
