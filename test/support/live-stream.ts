// A client of the inspector's push channel (GET /_mock/live, Server-Sent Events): collects the
// `change` notices and waits for one naming a topic (however long it takes; a hang guard names it).
import { within } from './waits';

/** Opens the stream at `base` (with a query, or a body sent with the GET) and collects its notices. */
export async function openLiveStream(base: string, query = '', withBody?: { 'content-type': string; body: string }) {
  const abort = new AbortController();
  const url = `${base}/_mock/live${query ? `?${query}` : ''}`;
  // fetch sends no body with a GET: a raw request does.
  const res = withBody ? await getWithBody(url, withBody, abort.signal) : await fetch(url, { signal: abort.signal });
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
  /** Resolves with the notices once one names `topic` (a hang guard fails naming it). */
  const until = (topic: string) =>
    within(
      `a live notice naming "${topic}" from ${url}`,
      (async () => {
        while (!notices.some((topics) => topics.includes(topic))) await new Promise<void>((wake) => waiters.push(wake));
        return notices;
      })(),
    );
  return { res, notices, until, close: async () => (abort.abort(), await pump) };
}

/** A GET that carries a body (fetch refuses to send one), answered as a web Response. */
async function getWithBody(url: string, sent: { 'content-type': string; body: string }, signal: AbortSignal): Promise<Response> {
  const { request } = await import('node:http');
  const { Readable } = await import('node:stream');
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': sent['content-type'], 'content-length': String(Buffer.byteLength(sent.body)) };
    const req = request(url, { method: 'GET', headers, signal }, (res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
      resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status: res.statusCode, headers }));
    });
    req.on('error', reject);
    req.end(sent.body);
  });
}
