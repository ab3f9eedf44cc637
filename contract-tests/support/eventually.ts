// Waits for something the target does asynchronously (a delivery log being written) by asking
// again until it holds or a generous deadline passes. Nothing asserts on how long it took.
export async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`contract suite: gave up waiting for ${what}; last value: ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
