// Sizes and seeds of the reliability suite. Every test reads its size from the environment with
// a CI default small enough for the whole folder to run in about a minute on two cores; the
// RELIABILITY_* variables scale it up. One seed drives fast-check and the seeded PRNGs, so a
// failing run can be replayed with RELIABILITY_SEED=<the printed seed>.

/** A positive whole number from the environment, or the CI default. */
export function size(name: string, ciDefault: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return ciDefault;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** RELIABILITY_SEED when given (to replay a run), otherwise a fresh one that the tests print. */
export const SEED: number = (() => {
  const raw = process.env.RELIABILITY_SEED;
  if (raw !== undefined && raw !== '') {
    const value = Number(raw);
    if (!Number.isInteger(value)) throw new Error(`RELIABILITY_SEED must be an integer, got "${raw}"`);
    return value | 0;
  }
  return (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0;
})();

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence, in [0, 1). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [0, n) from a PRNG. */
export function pick(random: () => number, n: number): number {
  return Math.floor(random() * n);
}

/** Fisher-Yates with a PRNG: a new array, the input untouched. */
export function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = pick(random, i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** One line per test file, printed in afterAll: what was tried, at which size, with which seed. */
export function report(file: string, facts: Record<string, string | number>): void {
  const parts = Object.entries(facts).map(([key, value]) => `${key}=${value}`);
  console.log(`[reliability] ${file}: ${parts.join(' ')} seed=${SEED}`);
}
