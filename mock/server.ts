// The HTTP server around the app, with the protocol limits of the configuration: the largest
// request head (431), the time to receive a request's head and a whole request (408, the
// connection closed), and how long an idle keep-alive connection is kept. Refusals made by
// Node's HTTP parser before any route runs leave, like every other error, as the Error body
// with an X-Request-Id, and close the connection; other connections are not affected.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, STATUS_CODES, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from './config';
import { errorBody, ServiceError } from './errors/catalogue';
import { isDiscardingBody } from './http/unread-body';

export type ServerLimits = Pick<Config, 'maxHeaderBytes' | 'requestTimeoutMs' | 'headersTimeoutMs'>;

/** Node's default idle keep-alive time-out; client agents keep theirs below it (undici: 4 s). */
const KEEP_ALIVE_MS = 5_000;

/** The Node server options for the limits (exported for tests). */
export function serverOptions(limits: ServerLimits) {
  const requestTimeout = limits.requestTimeoutMs;
  // Node refuses a head time-out longer than the whole-request one.
  const headersTimeout =
    requestTimeout > 0 && (limits.headersTimeoutMs === 0 || limits.headersTimeoutMs > requestTimeout)
      ? requestTimeout
      : limits.headersTimeoutMs;
  const shortest = Math.min(...[requestTimeout, headersTimeout].filter((ms) => ms > 0), Infinity);
  return {
    maxHeaderSize: limits.maxHeaderBytes,
    requestTimeout,
    headersTimeout,
    // An idle keep-alive connection is waiting for its next request's head: keep it no longer
    // than a head may take to arrive.
    keepAliveTimeout: Number.isFinite(shortest) ? Math.min(KEEP_ALIVE_MS, shortest) : KEEP_ALIVE_MS,
    // Node enforces the two time-outs by sweeping its connections at this interval (30 s by
    // default, which would let a 300 ms limit run for 30 s): a quarter of the shortest, 50 ms to 1 s.
    connectionsCheckingInterval: Number.isFinite(shortest) ? Math.max(50, Math.min(1_000, Math.floor(shortest / 4))) : 30_000,
  };
}

/** An http.Server for the app with the configured limits; the caller listens. */
export function createServer(app: RequestListener, config: ServerLimits): Server {
  // Node's own refusal of an HTTP/1.1 request without a Host header is a bare 400 with no body
  // and no request id: the header is checked here instead, and refused like every other error.
  const server = createHttpServer({ ...serverOptions(config), requireHostHeader: false }, (req, res) => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return refuseWithoutHost(res);
    app(req, res);
  });
  server.on('clientError', answerClientError);
  return server;
}

/** RFC 9112, 3.2: an HTTP/1.1 request without a Host header is answered 400, and the connection closed. */
function refuseWithoutHost(res: ServerResponse): void {
  const error = new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'headers.host', message: 'is required in HTTP/1.1' }] });
  const body = JSON.stringify(errorBody(error));
  res.writeHead(error.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': randomUUID(),
    Connection: 'close',
  });
  res.end(body);
}

/** Why the server could not listen, in one line naming the port or host and the setting to change. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} is in use on ${host}: stop what listens there, or choose another with --port (env PORT; 0 picks a free one)`;
    case 'EACCES':
      return `port ${port} needs privileges this user lacks: choose one above 1023 with --port (env PORT)`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return (
        `cannot listen on host "${host}": it is not an address of this machine; ` +
        'choose one with --host (env HOST), such as 127.0.0.1 or 0.0.0.0'
      );
    default:
      return `cannot listen on ${host}:${port}: ${error.message}`;
  }
}

/** What Node's parser or time-outs refused, as the catalogue's error. */
export function clientErrorFor(error: NodeJS.ErrnoException): ServiceError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ServiceError('HEADERS_TOO_LARGE');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError('REQUEST_TIMEOUT');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ServiceError('PAYLOAD_TOO_LARGE', { reason: 'chunk extensions are too large' });
    default:
      return new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'request', message: 'is not a well-formed HTTP/1.1 request' }] });
  }
}

/** Connections already being refused: Node's parser reports every later chunk as an error again. */
const refusing = new WeakSet<Duplex>();

/**
 * Replaces Node's default 'clientError' answer (a bare status line) with the Error body. Unlike
 * Node's, it first lets complete earlier requests pipelined on the connection be answered, so
 * their answers are neither lost nor taken for the refusal. As Node does, it writes nothing
 * when the peer is gone or the refused request's own answer has begun (that would corrupt it).
 * The connection is closed either way.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (refusing.has(socket)) return;
  refusing.add(socket);
  refuseWhenAnswered(error, socket);
}

function refuseWhenAnswered(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A request answered before its body came (unread-body.ts) gets no second answer: its time is up.
  if (error.code === 'ECONNRESET' || !socket.writable || isDiscardingBody(socket)) {
    socket.destroy();
    return;
  }
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (current && !current.writableFinished) {
    if (current.req?.complete) {
      // An earlier, complete request is still being answered: its answer goes first.
      current.once('finish', () => refuseWhenAnswered(error, socket));
      return;
    }
    if (current.headersSent) {
      socket.destroy();
      return;
    }
  }
  const serviceError = clientErrorFor(error);
  const body = JSON.stringify(errorBody(serviceError));
  const head = [
    `HTTP/1.1 ${serviceError.status} ${STATUS_CODES[serviceError.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
