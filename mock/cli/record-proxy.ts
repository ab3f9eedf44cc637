// The proxy of `fos-mock record`: every request to it is sent on to the target as it came (its
// token, its idempotency key, its body) and the target's answer comes back as it was; each
// exchange is kept, whole, for the scenario and HAR files written when the recording stops.
// Bodies pass as the bytes they are; the files hold their text, or their base64 when they are not
// UTF-8 (no JSON body is ever that, but a gateway's error page may be).
import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { undici } from '../lazy/modules';

export interface Exchange {
  started: Date;
  ms: number;
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  requestHeaders: Record<string, string>;
  /** The body's text, or (requestEncoding 'base64') the base64 of bytes that are not UTF-8. */
  requestBody: string;
  requestEncoding?: 'base64';
  status: number;
  responseHeaders: Record<string, string>;
  /** As requestBody. */
  responseBody: string;
  responseEncoding?: 'base64';
}

export interface Recorder {
  url: string;
  /** The exchanges so far, in the order their answers came back. */
  exchanges: Exchange[];
  close(): Promise<void>;
}

// Headers of one connection, not of the message (RFC 9110 §7.6.1); the target gets its own.
// accept-encoding is left out so the target answers plain text that the files can hold.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'accept-encoding']);

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A body as the files hold it: its text when its bytes are UTF-8, else their base64. */
function kept(bytes: Buffer): { text: string; encoding?: 'base64' } {
  return isUtf8(bytes) ? { text: bytes.toString('utf8') } : { text: bytes.toString('base64'), encoding: 'base64' };
}

export async function startRecorder(options: { target: string; port: number; host?: string }): Promise<Recorder> {
  const target = options.target.replace(/\/+$/, '');
  const { Agent, request } = undici();
  const agent = new Agent({ keepAliveTimeout: 4_000 });
  const exchanges: Exchange[] = [];

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = new Date();
    const t0 = performance.now();
    const requestHeaders = flat(req.headers);
    const requestBytes = await readAll(req);
    const sent = Object.fromEntries(Object.entries(requestHeaders).filter(([name]) => !HOP_BY_HOP.has(name)));
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const answer = await request(`${target}${path}`, {
      method: method as 'GET',
      headers: sent,
      body: requestBytes.length === 0 ? undefined : requestBytes,
      dispatcher: agent,
    });
    const responseBytes = Buffer.from(await answer.body.arrayBuffer());
    const responseHeaders = flat(answer.headers);
    const back = Object.fromEntries(Object.entries(responseHeaders).filter(([name]) => !HOP_BY_HOP.has(name)));
    res.writeHead(answer.statusCode, { ...back, 'content-length': String(responseBytes.length) });
    res.end(responseBytes);
    const sentBody = kept(requestBytes);
    const answeredBody = kept(responseBytes);
    exchanges.push({
      started,
      ms: Math.round(performance.now() - t0),
      method,
      path,
      requestHeaders,
      requestBody: sentBody.text,
      ...(sentBody.encoding && { requestEncoding: sentBody.encoding }),
      status: answer.statusCode,
      responseHeaders,
      responseBody: answeredBody.text,
      ...(answeredBody.encoding && { responseEncoding: answeredBody.encoding }),
    });
  }

  const server = createServer((req, res) => {
    forward(req, res).catch((error: Error) => {
      // The target did not answer: the client is told so, as a gateway would (nothing is recorded).
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`fos-mock record: the target ${target} did not answer: ${error.message}\n`);
    });
  });
  server.listen(options.port, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    exchanges,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await agent.close();
    },
  };
}
