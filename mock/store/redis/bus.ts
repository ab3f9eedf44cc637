// A request/reply bus over Redis pub/sub: `ask` sends a message to every replica on the same
// Redis (this one included) and resolves with each one's reply. It waits for as many replies as
// there are live replicas that received the message: the fewer of PUBLISH's count (which also
// counts other subscribers, a monitoring tool's PSUBSCRIBE say) and the replicas whose heartbeat
// (every second) is recent, counted again every second. So a replica busy with its part (a
// drain of thousands of deliveries) is waited for as long as it lives, and one that dies or
// hangs mid-way stops being waited for within seconds: what it held is claimed again by the
// others (job leases), and should it come back it rereads the shared state within a second. A
// replica that fails its part, or an ask still unanswered after REPLY_CAP_MS, makes the ask fail
// with 503 SERVICE_UNAVAILABLE naming how many did not answer.
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../errors/catalogue';
import { connectRedis, unavailableOnLoss, type RedisClient } from './connection';

/** The longest an ask waits, live replicas or not (a clock advance may run many jobs). */
const REPLY_CAP_MS = 10 * 60_000;
/** How often an ask counts the live replicas again. */
const RECOUNT_MS = 1_000;
/** A replica whose last heartbeat is older than this is taken to be gone. */
const LIVE_MS = 5_000;

interface Pending {
  replies: unknown[];
  /** A reply that ends the ask at once (a question that one replica can answer). */
  accept?: (reply: unknown) => boolean;
  errors: string[];
  expected: number | undefined;
  /** Replicas that received the message (PUBLISH's count). */
  receivers: number;
  resolve: (replies: unknown[]) => void;
  timer: NodeJS.Timeout;
  recount: NodeJS.Timeout | undefined;
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
    /** Change notices of the other replicas (the inspector's push channel); never answered. */
    onLive?: (topics: string[]) => void;
    /** Another replica has an inspector page open. */
    onWatching?: () => void;
    onError: (error: unknown) => void;
  }) {
    const subscriber = await connectRedis({ url: options.url, name: 'fos-mock:bus', subscriber: true });
    const bus = new RedisBus(options.publisher, subscriber, options.prefix, options.onError);
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === bus.liveChannel()) bus.receiveLive(text, options.onLive, options.onWatching);
      else bus.receive(channel, text, options.handle);
    });
    // Replies sent while the connection is down are lost for good (pub/sub keeps nothing): the
    // asks waiting now answer 503 at once rather than wait for replies that cannot come.
    subscriber.on('close', () => bus.abandonPending());
    await subscriber.subscribe(bus.channel(), bus.replyChannel(bus.replicaId), bus.liveChannel());
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

  private liveChannel(): string {
    return `${this.prefix}c:live`;
  }

  /** Tells the other replicas what changed here (a notice, no reply; lost if Redis is away, like any notice). */
  publishLive(topics: readonly string[]): void {
    this.publisher.publish(this.liveChannel(), JSON.stringify({ from: this.replicaId, topics })).catch(() => undefined);
  }

  /** Tells the other replicas that an inspector page is open here. */
  publishWatching(): void {
    this.publisher.publish(this.liveChannel(), JSON.stringify({ from: this.replicaId, watching: true })).catch(() => undefined);
  }

  private receiveLive(text: string, onLive: ((topics: string[]) => void) | undefined, onWatching: (() => void) | undefined): void {
    try {
      const { from, topics, watching } = JSON.parse(text) as { from?: string; topics?: unknown; watching?: unknown };
      if (from === this.replicaId) return;
      if (watching === true) onWatching?.();
      if (Array.isArray(topics)) onLive?.(topics.filter((topic): topic is string => typeof topic === 'string'));
    } catch (error) {
      this.onError(error);
    }
  }

  private replyChannel(replicaId: string): string {
    return `${this.prefix}c:reply:${replicaId}`;
  }

  /**
   * Sends `message` to every replica and resolves with the first reply `accept` takes, without
   * waiting for the others; undefined when none did (every live replica answered, or the ask failed).
   */
  async askFirst(message: string, accept: (reply: unknown) => boolean): Promise<unknown> {
    try {
      const replies = await this.ask(message, accept);
      return replies.find(accept);
    } catch {
      return undefined;
    }
  }

  /** Sends `message` to every replica and resolves with their replies; 503 when one failed or did not answer. */
  async ask(message: string, accept?: (reply: unknown) => boolean): Promise<unknown[]> {
    const id = randomUUID();
    let entry: Pending | undefined;
    const done = new Promise<unknown[]>((resolve) => {
      const timer = setTimeout(() => {
        this.finish(id, entry as Pending);
      }, REPLY_CAP_MS);
      entry = { replies: [], errors: [], accept, expected: undefined, receivers: 0, resolve, timer, recount: undefined };
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
        pending.receivers = receivers;
        pending.expected = Math.min(receivers, Math.max(live, 1));
        pending.recount = setInterval(() => void this.recount(id, pending), RECOUNT_MS);
        pending.recount.unref();
        this.settle(id, pending);
      }
    } catch (error) {
      const entry = this.pending.get(id);
      if (entry) this.finish(id, entry);
      throw error;
    }
    const replies = await done;
    if (accept && replies.some(accept)) return replies;
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
    this.finish(id, entry);
  }

  /** Ends every ask waiting now as failed: this replica cannot hear the replies. */
  private abandonPending(): void {
    for (const [id, entry] of this.pending) {
      entry.errors.push('the bus connection to Redis was lost while replicas were answering');
      this.finish(id, entry);
    }
  }

  private finish(id: string, entry: Pending): void {
    clearTimeout(entry.timer);
    if (entry.recount) clearInterval(entry.recount);
    this.pending.delete(id);
    entry.resolve(entry.replies);
  }

  /** Waits no longer for replicas that stopped their heartbeat (died or hung) since the ask. */
  private async recount(id: string, entry: Pending): Promise<void> {
    const live = await this.publisher.zcount(this.registry(), Date.now() - LIVE_MS, '+inf').catch(() => undefined);
    if (live === undefined || !this.pending.has(id)) return;
    entry.expected = Math.min(entry.expected ?? entry.receivers, Math.max(live, 1));
    this.settle(id, entry);
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
    if (parsed.error === undefined && entry.accept?.(parsed.reply ?? null)) this.finish(parsed.id, entry);
    else this.settle(parsed.id, entry);
  }

  async close(): Promise<void> {
    for (const [id, entry] of this.pending) this.finish(id, entry);
    await this.publisher.zrem(this.registry(), this.replicaId).catch(() => undefined);
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
