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

/** First position whose key is >= key. */
export function lowerBound(rows: number[], keyOf: ArrayLike<number>, key: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keyOf[rows[mid] as number] as number) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
