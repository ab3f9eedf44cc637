// Typed arrays indexed by a number (a row, an arena's number) that grow as the numbers do.

type Numbers = Uint8Array | Uint16Array | Uint32Array | Int32Array;

/** `array` when index `n` fits in it, else a copy twice as long (or long enough), new places set to `fill`. */
export function withRoom<T extends Numbers>(array: T, n: number, fill = 0): T {
  if (n < array.length) return array;
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(array.length * 2, n + 1));
  if (fill !== 0) bigger.fill(fill, array.length);
  bigger.set(array);
  return bigger;
}
