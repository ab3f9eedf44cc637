// What the memory store keeps is never edited in place: readers get the stored object itself
// (no copy per read) and the response encoder keeps its checked JSON beside it
// (mock/http/response-encoder.ts). Freezing turns an accidental edit into a TypeError in the
// tests instead of a stale answer.
export function deepFreeze<T>(value: T): T {
  // A frozen object was frozen whole: records share unchanged parts with their earlier versions.
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
