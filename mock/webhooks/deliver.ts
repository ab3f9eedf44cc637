// One delivery attempt: POST the body with the seed's headers, with a time-out and without
// following redirects. Seed: "Any 2xx response counts as successful delivery; anything else,
// or a network error, is a failure"; httpStatus is 0 when no answer arrived.
import type { LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { undici } from '../lazy/modules';
import { REFUSED_ADDRESS } from './connect-lookup';

export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface DeliveryOutcome {
  ok: boolean;
  httpStatus: number;
  error: string | null;
}

export type Deliver = (delivery: DeliveryRequest) => Promise<DeliveryOutcome>;

/** How an app delivers: one attempt at a time through its own keep-alive connections, closed with the app. */
export interface HttpDelivery {
  send: Deliver;
  close(): Promise<void>;
}

/**
 * Keep-alive connections to receivers, made on the first delivery (undici is loaded then, not
 * at start-up); redirects are never followed (undici's request does not). Each app has its own,
 * so closing one app never cuts another's deliveries. `lookup` resolves the names connected to
 * (connect-lookup.ts: the app's resolver, refusing what the URL policy refuses); the system's by default.
 */
export function httpDelivery(lookup?: LookupFunction): HttpDelivery {
  let agent: Agent | undefined;
  return {
    async send(delivery) {
      const signal = AbortSignal.timeout(delivery.timeoutMs);
      try {
        const { Agent, request } = undici();
        agent ??= new Agent({ keepAliveTimeout: 10_000, connections: 64, connect: lookup ? { lookup } : undefined });
        const response = await request(delivery.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...delivery.headers },
          body: delivery.body,
          signal,
          dispatcher: agent,
        });
        // Drain the answer so the connection can be reused; its content does not matter.
        await response.body.dump({ limit: 256 * 1024, signal }).catch(() => undefined);
        const ok = response.statusCode >= 200 && response.statusCode < 300;
        const redirect = response.statusCode >= 300 && response.statusCode < 400;
        return {
          ok,
          httpStatus: response.statusCode,
          error: ok
            ? null
            : redirect
              ? `the endpoint answered ${response.statusCode} (redirects are not followed)`
              : `the endpoint answered ${response.statusCode}`,
        };
      } catch (error) {
        return { ok: false, httpStatus: 0, error: describeNetworkError(error, delivery.timeoutMs) };
      }
    },
    async close() {
      const closing = agent;
      agent = undefined;
      await closing?.close();
    },
  };
}

export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string; message?: string }; message?: string };
  const code = e.code ?? e.cause?.code;
  if (code === REFUSED_ADDRESS) return `refused: ${e.code === undefined ? e.cause?.message : e.message}`;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `timed out after ${timeoutMs} ms with no answer`;
  }
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'connection reset before an answer';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    default:
      return `network error: ${code ?? e.message ?? 'unknown'}`;
  }
}
