// A client of the inspector's push channel (GET /_mock/live, Server-Sent Events): collects the
// `change` notices and waits for one naming a topic (bounded by the test's time-out, never timed).

/** Opens the stream at `base` and collects its notices. */
export async function openLiveStream(base: string) {
  const abort = new AbortController();
  const res = await fetch(`${base}/_mock/live`, { signal: abort.signal });
  const notices: string[][] = [];
  const waiters: Array<() => void> = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^event: change\ndata: (.*)$/m.exec(block);
        if (data) notices.push((JSON.parse(data[1]!) as { topics: string[] }).topics);
        waiters.splice(0).forEach((wake) => wake());
      }
    }
  })();
  /** Resolves with the notices once one names `topic` (bounded by the test's time-out). */
  const until = async (topic: string) => {
    while (!notices.some((topics) => topics.includes(topic))) await new Promise<void>((wake) => waiters.push(wake));
    return notices;
  };
  return { res, notices, until, close: async () => (abort.abort(), await pump) };
}
