// Modules the mock loads on first use instead of at start-up, all in this one folder and all
// the same way: `deferred` wraps a require that runs the first time the module is asked for.
// `serve` answering its first request needs none of them, and each costs start-up time.

/** The module `load` returns, loaded on the first call and kept by Node's module cache after. */
export function deferred<T>(load: () => T): () => T {
  let module: T | undefined;
  return () => (module ??= load());
}
