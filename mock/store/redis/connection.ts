// One Redis connection per use (commands, subscriptions), made the same way: RESP2 replies
// (plain arrays from Lua and HGETALL), each command written as it is issued (ioredis's
// auto-pipelining measured 15-25% slower here: its batching costs more CPU than the socket writes
// it saves), and a lost Redis answered at once rather than queued: with the offline
// queue off, a command while disconnected fails immediately and the request gets a clean 503,
// while ioredis keeps reconnecting in the background by itself.
import { Redis, ReplyError } from 'ioredis';
import { ServiceError } from '../../errors/catalogue';
import { redactedUrl } from './redacted-url';

/** How long one command may take before the request is answered 503 instead of hanging. */
const COMMAND_TIMEOUT_MS = 3_000;

export type RedisClient = Redis;

export interface ConnectOptions {
  url: string;
  /** A name shown by CLIENT LIST (which replica, which role). */
  name: string;
  /** Subscriber connections may not time out while waiting for messages. */
  subscriber?: boolean;
}

/** Connects and waits for the first PING; a Redis that cannot be reached at start-up is an error naming the URL. */
export async function connectRedis(options: ConnectOptions): Promise<RedisClient> {
  const client = new Redis(options.url, {
    protocol: 2,
    lazyConnect: true,
    connectionName: options.name,
    enableAutoPipelining: false,
    enableOfflineQueue: options.subscriber === true,
    maxRetriesPerRequest: options.subscriber ? null : 0,
    commandTimeout: options.subscriber ? undefined : COMMAND_TIMEOUT_MS,
    connectTimeout: COMMAND_TIMEOUT_MS,
    // A closing connection whose socket does not close by then is destroyed (ioredis waits 2 s).
    disconnectTimeout: 200,
    // Reconnect for ever, at most every second: Redis coming back is picked up by itself.
    retryStrategy: (attempt) => Math.min(50 * attempt, 1_000),
  });
  // Errors surface on each command; without a listener ioredis would print every reconnect attempt.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(`fos-mock: cannot reach Redis at ${redactedUrl(options.url)}: ${(error as Error).message}`, { cause: error });
  }
  return client;
}

/**
 * Runs a Redis call; a lost or slow connection becomes 503 SERVICE_UNAVAILABLE (the one error a
 * client sees, with the Error body), while an error Redis itself answered (a script's refusal,
 * a bug of ours) is left as it is.
 */
export async function unavailableOnLoss<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ReplyError || error instanceof ServiceError) throw error;
    throw new ServiceError('SERVICE_UNAVAILABLE', { dependency: 'redis', reason: (error as Error).message });
  }
}
