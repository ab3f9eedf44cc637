// The fault registry (mock/http/faults.ts) as plain logic: which request a fault acts on, how a
// seeded draw picks a latency, what a fault lists, and faults shared by replicas (REDIS_URL) with
// an in-memory stand-in for the shared state that keeps its rules (one atomic hit per firing,
// gone at zero, a version bumped on every change).
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { FaultRegistry, type SharedFaults } from '../../mock/http/faults';

const NOW = '2026-11-21T12:00:00.000Z';
const ids =
  (...list: string[]) =>
  () =>
    list.shift() as string;
const local = (random: () => number = () => 0) => {
  let n = 0;
  return new FaultRegistry(
    () => `f${++n}`,
    () => NOW,
    random,
  );
};

describe('which request a fault acts on', () => {
  it('a fault on one method leaves the others alone; a fault without a method takes any', async () => {
    const registry = local();
    await registry.add({ method: 'POST', path: '/x', error: { status: 500 } });
    await registry.add({ path: '/y', error: { status: 500 } });
    expect(await registry.take('GET', '/x')).toBeUndefined();
    expect((await registry.take('POST', '/x'))?.fault.id).toBe('f1');
    expect((await registry.take('DELETE', '/y'))?.fault.id).toBe('f2');
    expect((await registry.take('GET', '/y'))?.fault.id).toBe('f2');
  });

  it('trailing slashes of the request and of the pattern are ignored; the root / is a path of its own', async () => {
    const registry = local();
    await registry.add({ path: '/a//', error: { status: 500 } });
    await registry.add({ path: '/', error: { status: 502 } });
    expect((await registry.take('GET', '/a'))?.fault.id).toBe('f1');
    expect((await registry.take('GET', '/a/'))?.fault.id).toBe('f1');
    expect((await registry.take('GET', '/a///'))?.fault.id).toBe('f1');
    expect((await registry.take('GET', '/'))?.fault.id).toBe('f2');
    expect(await registry.take('GET', '/b')).toBeUndefined();
  });
});

describe('latency', () => {
  it('a range draws min + floor(draw × (max − min + 1)), one draw per firing (none spent on a fault without percent)', async () => {
    const draws = [0, 0.5, 0.999];
    const registry = local(() => draws.shift() as number);
    await registry.add({ path: '/x', latencyMs: { min: 10, max: 20 } });
    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) latencies.push((await registry.take('GET', '/x'))!.latencyMs);
    expect(latencies).toEqual([10, 15, 20]);
  });

  it('a fault without latency waits 0 ms; a fixed latency waits exactly that', async () => {
    const registry = local();
    await registry.add({ method: 'GET', path: '/x', error: { status: 500 } });
    await registry.add({ path: '/y', latencyMs: 7 });
    expect((await registry.take('GET', '/x'))!.latencyMs).toBe(0);
    expect((await registry.take('GET', '/y'))!.latencyMs).toBe(7);
  });
});

describe('what a fault lists', () => {
  it('only the fields it was given, with method * and drop false by default, the default code and message of an error', async () => {
    const registry = local();
    const minimal = await registry.add({ path: '/x', error: { status: 503 } });
    expect(minimal).toStrictEqual({
      id: 'f1',
      method: '*',
      path: '/x',
      drop: false,
      hits: 0,
      createdAt: NOW,
      error: { status: 503, code: 'INJECTED_FAULT', message: 'A fault injected through the control API.' },
    });
    const full = await registry.add({ method: 'GET', path: '/y', latencyMs: 0, drop: true, times: 2, percent: 100 });
    expect(full).toStrictEqual({
      id: 'f2',
      method: 'GET',
      path: '/y',
      latencyMs: 0,
      drop: true,
      times: 2,
      remaining: 2,
      percent: 100,
      hits: 0,
      createdAt: NOW,
    });
    expect(await registry.list()).toStrictEqual([minimal, full]);
  });

  it('counts what this replica knows: one per fault added, none once cleared or used up', async () => {
    const registry = local();
    expect(registry.size).toBe(0);
    await registry.add({ path: '/x', drop: true, times: 1 });
    await registry.add({ path: '/y', drop: true });
    expect(registry.size).toBe(2);
    await registry.take('GET', '/x');
    expect(registry.size).toBe(1);
    await registry.clear();
    expect(registry.size).toBe(0);
  });
});

/** The shared state's faults as mock/store/redis/shared-state.ts keeps them, in memory. */
class MemoryFaults implements SharedFaults {
  readonly faults = new Map<string, string>();
  version = 0;
  /** Fails the next list, as an unreachable Redis would. */
  failNextList = false;

  async faultsList(): Promise<string[]> {
    await Promise.resolve();
    if (this.failNextList) {
      this.failNextList = false;
      throw new Error('shared state out of reach');
    }
    // A hash's values come in no promised order: here every other one by id (last first), then the rest back.
    const byId = [...this.faults.entries()].sort(([a], [b]) => b.localeCompare(a)).map(([, json]) => json);
    return [...byId.filter((_, i) => i % 2 === 0), ...byId.filter((_, i) => i % 2 === 1).reverse()];
  }
  async faultPut(id: string, json: string): Promise<void> {
    await Promise.resolve();
    this.faults.set(id, json);
    this.version++;
  }
  async faultRemove(id: string): Promise<boolean> {
    await Promise.resolve();
    this.version++;
    return this.faults.delete(id);
  }
  async faultsClear(): Promise<void> {
    await Promise.resolve();
    this.faults.clear();
    this.version++;
  }
  async faultHit(id: string): Promise<string | null> {
    await Promise.resolve();
    const raw = this.faults.get(id);
    if (raw === undefined) return null;
    const fault = JSON.parse(raw) as { hits: number; remaining?: number };
    fault.hits += 1;
    if (fault.remaining !== undefined) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) {
        this.faults.delete(id);
        this.version++;
        return JSON.stringify(fault);
      }
    }
    this.faults.set(id, JSON.stringify(fault));
    return JSON.stringify(fault);
  }
}

describe('faults shared by replicas', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });
  const replica = (shared: MemoryFaults, newId: () => string) =>
    new FaultRegistry(
      newId,
      () => NOW,
      () => 0,
      shared,
    );

  it('a fault added through one replica is listed by all, acts on another once reloaded, and counts its hits across them', async () => {
    const shared = new MemoryFaults();
    const a = replica(shared, ids('f1'));
    const b = replica(shared, ids());
    const fault = await a.add({ path: '/x', error: { status: 503 }, times: 3 });
    expect(await b.list()).toStrictEqual([fault]);
    expect(b.size).toBe(0);
    await b.refresh(shared.version);
    expect(b.size).toBe(1);
    expect((await b.take('GET', '/x'))!.fault).toMatchObject({ id: 'f1', hits: 1, remaining: 2 });
    expect((await a.take('GET', '/x'))!.fault).toMatchObject({ id: 'f1', hits: 2, remaining: 1 });
    expect(await a.list()).toStrictEqual([{ ...fault, hits: 2, remaining: 1 }]);
  });

  it('a replica reloads only when the version has moved, and tries again after a failed load', async () => {
    const shared = new MemoryFaults();
    const a = replica(shared, ids('f1', 'f2'));
    const b = replica(shared, ids());
    await a.add({ path: '/x', drop: true });
    const seen = shared.version;
    await b.refresh(seen);
    await a.add({ path: '/y', drop: true });
    await b.refresh(seen);
    expect(b.size).toBe(1);
    shared.failNextList = true;
    await expect(b.refresh(shared.version)).rejects.toThrow('shared state out of reach');
    expect(b.size).toBe(1);
    await b.refresh(shared.version);
    expect(b.size).toBe(2);
    expect((await b.take('GET', '/y'))!.fault.id).toBe('f2');
  });

  it('a fault another replica used up is not fired, and is forgotten', async () => {
    const shared = new MemoryFaults();
    const a = replica(shared, ids('f1'));
    const b = replica(shared, ids());
    await a.add({ path: '/x', error: { status: 500 }, times: 1 });
    await b.refresh(shared.version);
    expect((await a.take('GET', '/x'))!.fault).toMatchObject({ id: 'f1', remaining: 0, hits: 1 });
    expect(a.size).toBe(0);
    expect(await b.take('GET', '/x')).toBeUndefined();
    expect(b.size).toBe(0);
    expect(await b.list()).toEqual([]);
  });

  it('removing or clearing through one replica does so for all', async () => {
    const shared = new MemoryFaults();
    const a = replica(shared, ids('f1', 'f2', 'f3'));
    const b = replica(shared, ids());
    await a.add({ path: '/x', drop: true });
    await a.add({ path: '/y', drop: true });
    expect(await b.remove('f1')).toBe(true);
    expect(await b.remove('f1')).toBe(false);
    expect((await a.list()).map((f) => f.id)).toEqual(['f2']);
    await a.add({ path: '/z', drop: true });
    await b.clear();
    expect(await a.list()).toEqual([]);
  });

  it('faults are tried and listed in the order they were added (real time, then a counter), whatever their ids', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_764_000_000_000);
    const shared = new MemoryFaults();
    const names = Array.from({ length: 12 }, (_, i) => `id-${String.fromCharCode(122 - i)}`);
    const a = replica(shared, ids(...names));
    for (let i = 0; i < 12; i++) await a.add({ path: '/x', error: { status: 500 + i } });
    expect((await a.list()).map((f) => f.id)).toEqual(names);
    // Kept as a string of fixed width (15 digits of time, 9 of counter): a number this long would be rounded.
    expect((JSON.parse(shared.faults.get('id-z')!) as { order: string }).order).toBe('001764000000000000000000');
    expect((JSON.parse(shared.faults.get('id-o')!) as { order: string }).order).toBe('001764000000000000000011');
    const b = replica(shared, ids());
    await b.refresh(shared.version);
    expect((await b.take('GET', '/x'))!.fault.id).toBe('id-z');
  });

  it('faults added at the same instant by two replicas are in id order, the same for every replica; later ones after', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_764_000_000_000);
    const shared = new MemoryFaults();
    await replica(shared, ids('f-b')).add({ path: '/x', drop: true });
    await replica(shared, ids('f-a')).add({ path: '/x', drop: true });
    await replica(shared, ids('f-c')).add({ path: '/x', drop: true });
    now.mockReturnValue(1_764_000_000_001);
    await replica(shared, ids('f-0')).add({ path: '/x', drop: true });
    const fresh = replica(shared, ids());
    expect((await fresh.list()).map((f) => f.id)).toEqual(['f-a', 'f-b', 'f-c', 'f-0']);
  });
});
