// An answer given before its request's body was read (401 without a token, 413 on the declared
// length, 415, an injected fault's error) leaves the client still sending. Closing the connection
// then, with bytes unread, makes the kernel reset it, and the reset can overtake the answer: a
// proxy in front of the mock, still writing the body upstream, loses the answer and resets its
// own client (RFC 9112, 9.6, "the TCP reset problem"). So the connection is kept: once the answer
// is finished Node reads and discards the rest of the body, and the connection serves the
// client's next request. A client that has not finished its body within LINGER_MS of the answer
// is disconnected, so a body declared in gigabytes and never sent holds nothing for long.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export const LINGER_MS = 5_000;

/** Connections whose answer is sent and whose request body is still arriving, to be discarded. */
const discarding = new WeakSet<Duplex>();

/** True while the connection's answered request is still sending its body (no second answer may be written). */
export function isDiscardingBody(socket: Duplex): boolean {
  return discarding.has(socket);
}

/** Call before answering a request whose body may be unread: bounds the time the rest of it may take. */
export function lingerForUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  res.once('finish', () => {
    if (req.complete) return;
    const socket = req.socket;
    discarding.add(socket);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    // 'close' on a request: its body has ended (or its connection closed).
    req.once('close', () => {
      clearTimeout(timer);
      discarding.delete(socket);
    });
  });
}
