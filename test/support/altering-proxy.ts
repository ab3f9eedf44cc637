// A stand-in for the service's sandbox in tests: a proxy in front of a mock that passes every
// request through and lets a test alter the JSON answers on their way back (rename an error code,
// give a field another type, settle an operation differently).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  /** Path and query. */
  path: string;
  status: number;
  /** The parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
}

/** Returns the answer to send instead, or nothing to pass it as it is. */
export type Alteration = (exchange: Exchange) => { status?: number; body?: unknown } | undefined;

export interface AlteringProxy {
  url: string;
  close(): Promise<void>;
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function alteringProxy(target: string, alter: Alteration = () => undefined): Promise<AlteringProxy> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readAll(request);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name, value]) => typeof value === 'string' && !['host', 'connection'].includes(name)),
      ) as Record<string, string>;
      const answer = await fetch(`${target}${request.url ?? '/'}`, {
        method: request.method,
        headers,
        body: body.length > 0 ? body : undefined,
      });
      const text = await answer.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const change = alter({ method: request.method ?? 'GET', path: request.url ?? '/', status: answer.status, body: parsed });
      const status = change?.status ?? answer.status;
      const out = change && 'body' in change ? JSON.stringify(change.body) : text;
      response.writeHead(status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(out);
    })().catch((error: Error) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(error.message);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
