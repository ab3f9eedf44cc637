// A small HTTP load balancer for tests that run several replicas of the mock as one service: it
// listens on a free loopback port and sends each request to the next upstream in turn (strict
// alternation over two, counting requests, not connections), streaming both bodies. The status,
// the headers (X-Request-Id, Retry-After, Allow ... as the upstream wrote them) and the body pass
// unchanged; only hop-by-hop headers are left to each side's own connection. An upstream that drops
// the connection (the mock's `drop` fault) gets the client's connection dropped too; an upstream
// that cannot be reached at all is a 502 text/plain, which no document allows, so a test sees it.
import { Agent, createServer, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  url: string;
  /** Requests sent to each upstream so far, in the order of the upstreams given. */
  counts: number[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Request headers without the hop-by-hop ones (the Host header is passed as the client sent it). */
function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** Response headers as the upstream wrote them (names' case and repeated headers kept), without the hop-by-hop ones. */
function forwardableRaw(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

export async function startRoundRobin(upstreams: string[]): Promise<RoundRobin> {
  if (upstreams.length === 0) throw new Error('round-robin: no upstream');
  const targets = upstreams.map((u) => new URL(u));
  const counts = targets.map(() => 0);
  // Keep-alive to the upstreams, as clients reach the mock: a request on a `Connection: close`
  // socket whose body the upstream does not read (a body on a GET, ignored) is answered and the
  // socket closed with the body unread, which the kernel turns into a reset that can overtake the
  // answer. An idle socket is dropped after 2 s, well before the mock's own 5 s idle time-out
  // could close it under a request; a stopped replica's sockets close and leave the pool.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, timeout: 2_000 });
  let next = 0;

  const server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    counts[index]!++;
    const target = targets[index]!;
    let connected = false;
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardable(req.headers), agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardableRaw(answer.rawHeaders));
        answer.pipe(res);
        // The upstream answered before reading the whole body (413 on the declared length, 401
        // without a token). Node's client reports no 'drain' once its answer has ended, so the pipe
        // would stall with the body half sent: the rest of the client's body is read and dropped,
        // and the upstream connection, its request never to be finished, closed.
        answer.on('end', () => {
          if (upstream.writableEnded) return;
          req.unpipe(upstream);
          req.resume();
          upstream.destroy();
        });
        // The upstream closed the connection in the middle of its answer: so does the balancer.
        answer.on('close', () => {
          if (!answer.complete) res.destroy();
        });
      },
    );
    // A pooled socket is connected already; a new one once it connects.
    upstream.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = true;
    });
    upstream.on('error', (error) => {
      if (res.writableEnded) return; // the whole answer is on its way to the client
      if (res.headersSent || connected) {
        res.destroy(); // dropped after connecting (a `drop` fault) or mid-answer: the client's connection goes too
      } else {
        res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' });
        res.end(`round-robin: upstream ${index} (${target.origin}) unreachable: ${error.message}\n`);
      }
    });
    // The client went away before its answer: abandon the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    // The client stopped sending its body (one that has its answer already may: the upstream
    // answered before reading it all): the upstream request can never be finished, so it goes.
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
    req.pipe(upstream);
  });
  // Idle client connections stay open longer than a client's own idle time-out (serviceClient's
  // 3 s; undici follows the Keep-Alive hint), so a client never sends on a socket being closed.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}
