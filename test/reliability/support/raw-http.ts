// Raw HTTP/1.1 over a net socket: writes exactly the bytes a test scripts (truncated bodies,
// lying Content-Length, chunked framing, a byte every 50 ms) and parses whatever comes back.
import { connect, type Socket } from 'node:net';
import { HANG_GUARD_MS } from '../../support/waits';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  /** Every byte the server sent, as text. */
  raw: string;
  responses: RawResponse[];
  /** The server closed (or reset) the connection. */
  closed: boolean;
  /** The hang guard ran out before the server closed; the socket was destroyed by us. */
  timedOut: boolean;
  error?: string;
}

/** Bytes to write, a pause, or one of the two strings 'end' (half-close) and 'destroy' (reset), which are never written. */
export type Step = string | Buffer | { wait: number };

/**
 * Connects, plays the steps (writes, waits, half-close, destroy) and collects the answer until
 * the server closes the connection (or the steps destroy it). `timeoutMs` is a hang guard, far
 * beyond any answer on a busy machine: an exchange that reaches it says so (`timedOut`).
 */
export function exchange(port: number, steps: Step[], timeoutMs = HANG_GUARD_MS): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let finished = false;
    let error: string | undefined;
    const finish = (closed: boolean, timedOut: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({ raw, responses: parseResponses(raw), closed, timedOut, error });
    };
    const timer = setTimeout(() => finish(false, true), timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => finish(true, false));
    const play = async () => {
      for (const step of steps) {
        if (finished || socket.destroyed) return;
        if (step === 'end') socket.end();
        else if (step === 'destroy') {
          socket.destroy();
          return;
        } else if (typeof step === 'object' && !Buffer.isBuffer(step)) await new Promise((r) => setTimeout(r, step.wait));
        else await new Promise<void>((r) => socket.write(step, () => r()));
      }
    };
    // Not awaited: the exchange ends when the server closes the connection or time runs out, not when the steps do.
    socket.once('connect', () => void play());
  });
}

/** Splits the bytes into HTTP responses (Content-Length or chunked bodies); a partial tail is dropped. */
export function parseResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = raw;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (!rest.startsWith('HTTP/') || headEnd < 0) return out;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const status = Number(statusLine!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const at = line.indexOf(':');
      if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    let body = '';
    let after = rest.slice(headEnd + 4);
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      for (;;) {
        const lineEnd = after.indexOf('\r\n');
        if (lineEnd < 0) return [...out, { status, headers, body }];
        const length = parseInt(after.slice(0, lineEnd), 16);
        after = after.slice(lineEnd + 2);
        if (!length) {
          after = after.slice(after.indexOf('\r\n') + 2);
          break;
        }
        body += after.slice(0, length);
        after = after.slice(length + 2);
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = after.slice(0, length);
      after = after.slice(length);
    }
    out.push({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') });
    rest = after;
  }
}

/** A request head with CRLFs; headers given in order, as written. */
export function head(requestLine: string, headers: Array<[string, string | number]>): string {
  return `${requestLine}\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
}
