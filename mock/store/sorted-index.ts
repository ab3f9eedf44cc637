// A list (one scope of a table) as an array of the table's rows, kept in ascending order of their
// insertion keys, so a page is a binary search plus a slice: O(log n + page size) whatever the
// size of the list (the document's pagination: a page costs O(page size), not O(all records)).
// Rows are small integers and keys are read from the table's key column: a list holds no objects.

/** Adds `row` in key order; answers the list's array (a new one while the list is short). */
export function appendRow(rows: number[], keyOf: ArrayLike<number>, row: number): number[] {
  const key = keyOf[row] as number;
  const last = rows[rows.length - 1];
  if (last !== undefined && key < (keyOf[last] as number)) {
    rows.splice(lowerBound(rows, keyOf, key), 0, row);
    return rows;
  }
  // A short list (an operation's timeline) grows by exact copies: a pushed array reserves 16 slots.
  if (rows.length < 8) return rows.concat(row);
  rows.push(row);
  return rows;
}

export function removeRow(rows: number[], keyOf: ArrayLike<number>, row: number): void {
  const at = lowerBound(rows, keyOf, keyOf[row] as number);
  if (rows[at] === row) rows.splice(at, 1);
}

/** A list this long or longer is searched from a guess (below: plain halving is as quick). */
const GUESS_FROM = 64;

/**
 * First position whose key is >= key. A long list is searched from where the key would stand if
 * keys were evenly spread (they are insertion counts, so nearly so), then outward in doubling
 * steps to a range that holds it, then by halving that range. Why: halving a million rows read
 * about twenty rows and their keys at random places in memory, each a cache miss, on every page
 * asked for by cursor; from a good guess it reads a handful. Keys spread unevenly cost at most
 * about twice the halving (the doubling steps, then the halving of what they found).
 */
export function lowerBound(rows: number[], keyOf: ArrayLike<number>, key: number): number {
  let lo = 0;
  let hi = rows.length;
  // Below, every position before `lo` holds a key < key, and every one from `hi` a key >= key.
  if (hi >= GUESS_FROM) {
    const first = keyAt(rows, keyOf, 0);
    const last = keyAt(rows, keyOf, hi - 1);
    if (!(key > first)) return 0;
    if (key > last) return hi;
    // first < key <= last, so the guess is a position of the list.
    const guess = Math.min(hi - 1, Math.floor(((key - first) / (last - first)) * (hi - 1)));
    let step = 1;
    if (keyAt(rows, keyOf, guess) < key) {
      lo = guess + 1;
      for (let p = lo; p < hi; p = lo + step - 1, step *= 2) {
        if (keyAt(rows, keyOf, p) >= key) {
          hi = p;
          break;
        }
        lo = p + 1;
      }
    } else {
      hi = guess;
      for (let p = hi - 1; p >= lo; p = hi - step, step *= 2) {
        if (keyAt(rows, keyOf, p) < key) {
          lo = p + 1;
          break;
        }
        hi = p;
      }
    }
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyAt(rows, keyOf, mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function keyAt(rows: number[], keyOf: ArrayLike<number>, position: number): number {
  return keyOf[rows[position] as number] as number;
}
