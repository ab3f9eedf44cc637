// A request/reply bus over Redis pub/sub: `ask` sends a message to every replica on the same
// Redis (this one included) and resolves with each one's reply. It waits for as many replies as
// there are live replicas that received the message: the fewer of PUBLISH's count (which also
// counts other subscribers, a monitoring tool's PSUBSCRIBE say) and the replicas whose heartbeat
// (every second) is recent. A replica that fails its part, or does not answer within the
// time-out, makes the ask fail with 503 SERVICE_UNAVAILABLE naming how many did not.
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../errors/catalogue';
import { connectRedis, unavailableOnLoss, type RedisClient } from './connection';

/** How long every replica has to do its part (a clock advance may run many jobs). */
const REPLY_TIMEOUT_MS = 30_000;
/** A replica whose last heartbeat is older than this is taken to be gone. */
const LIVE_MS = 5_000;

interface Pending {
  replies: unknown[];
  errors: string[];
  expected: number | undefined;
  resolve: (replies: unknown[]) => void;
  timer: NodeJS.Timeout;
}

export type BusHandler = (message: string) => Promise<unknown>;

export class RedisBus {
  readonly replicaId = randomUUID();
  private readonly pending = new Map<string, Pending>();

  private constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Subscribes this replica; `handle` answers what other replicas (or this one) ask. */
  static async open(options: {
    url: string;
    prefix: string;
    publisher: RedisClient;
    handle: BusHandler;
    onError: (error: unknown) => void;
  }) {
    const subscriber = await connectRedis({ url: options.url, name: 'fos-mock:bus', subscriber: true });
    const bus = new RedisBus(options.publisher, subscriber, options.prefix, options.onError);
    subscriber.on('message', (channel: string, text: string) => bus.receive(channel, text, options.handle));
    await subscriber.subscribe(bus.channel(), bus.replyChannel(bus.replicaId));
    bus.heartbeat();
    return bus;
  }

  private registry(): string {
    return `${this.prefix}c:replicas`;
  }

  /** Says this replica is alive (the registry of replicas an ask waits for). */
  heartbeat(): void {
    const now = Date.now();
    this.publisher
      .multi()
      .zadd(this.registry(), now, this.replicaId)
      .zremrangebyscore(this.registry(), '-inf', now - 10 * LIVE_MS)
      .exec()
      // Redis away: the resync that runs beside it says so, once.
      .catch(() => undefined);
  }

  /** Whether this replica hears the bus now (ioredis reconnects and subscribes again by itself). */
  get connected(): boolean {
    return this.subscriber.status === 'ready';
  }

  private channel(): string {
    return `${this.prefix}c:bus`;
  }

  private replyChannel(replicaId: string): string {
    return `${this.prefix}c:reply:${replicaId}`;
  }

  /** Sends `message` to every replica and resolves with their replies; 503 when one failed or did not answer. */
  async ask(message: string): Promise<unknown[]> {
    const id = randomUUID();
    let entry: Pending | undefined;
    const done = new Promise<unknown[]>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve((entry as Pending).replies);
      }, REPLY_TIMEOUT_MS);
      entry = { replies: [], errors: [], expected: undefined, resolve, timer };
      this.pending.set(id, entry);
    });
    try {
      const [receivers, live] = await unavailableOnLoss(
        Promise.all([
          this.publisher.publish(this.channel(), JSON.stringify({ id, from: this.replicaId, message })),
          this.publisher.zcount(this.registry(), Date.now() - LIVE_MS, '+inf'),
        ]),
      );
      const pending = this.pending.get(id);
      if (pending) {
        pending.expected = Math.min(receivers, Math.max(live, 1));
        this.settle(id, pending);
      }
    } catch (error) {
      const entry = this.pending.get(id);
      if (entry) clearTimeout(entry.timer);
      this.pending.delete(id);
      throw error;
    }
    const replies = await done;
    const failed = (entry as Pending).errors;
    const expected = (entry as Pending).expected ?? 0;
    if (failed.length > 0 || replies.length + failed.length < expected) {
      throw new ServiceError('SERVICE_UNAVAILABLE', {
        dependency: 'replicas',
        reason: `${expected - replies.length} of ${expected} replicas did not do their part of "${message}"`,
        errors: failed,
      });
    }
    return replies;
  }

  private settle(id: string, entry: Pending): void {
    if (entry.expected === undefined || entry.replies.length + entry.errors.length < entry.expected) return;
    clearTimeout(entry.timer);
    this.pending.delete(id);
    entry.resolve(entry.replies);
  }

  private receive(channel: string, text: string, handle: BusHandler): void {
    let parsed: { id: string; from?: string; message?: string; reply?: unknown; error?: string };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch (error) {
      this.onError(error);
      return;
    }
    if (channel === this.channel()) {
      const { id, from, message } = parsed;
      handle(message ?? '')
        .then(
          (reply) => ({ id, reply: reply ?? null }),
          (error: unknown) => {
            this.onError(error);
            return { id, error: (error as Error).message };
          },
        )
        .then((answer) => this.publisher.publish(this.replyChannel(from ?? ''), JSON.stringify(answer)))
        .catch(this.onError);
      return;
    }
    const entry = this.pending.get(parsed.id);
    if (!entry) return;
    if (parsed.error !== undefined) entry.errors.push(parsed.error);
    else entry.replies.push(parsed.reply ?? null);
    this.settle(parsed.id, entry);
  }

  async close(): Promise<void> {
    for (const [, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve(entry.replies);
    }
    this.pending.clear();
    await this.publisher.zrem(this.registry(), this.replicaId).catch(() => undefined);
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
