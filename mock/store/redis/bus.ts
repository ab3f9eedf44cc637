// A request/reply bus over Redis pub/sub: `ask` sends a message to every replica on the same
// Redis (this one included) and resolves with each one's reply. PUBLISH answers how many
// subscribers received the message, so the asker knows how many replies to wait for; a replica
// that dies before it replies is waited for only until the time-out.
import { randomUUID } from 'node:crypto';
import { connectRedis, unavailableOnLoss, type RedisClient } from './connection';

/** A replica that has not replied by then is taken to be gone. */
const REPLY_TIMEOUT_MS = 60_000;

interface Pending {
  replies: unknown[];
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
    return bus;
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

  /** Sends `message` to every replica and resolves with their replies. */
  async ask(message: string): Promise<unknown[]> {
    const id = randomUUID();
    const done = new Promise<unknown[]>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(entry.replies);
      }, REPLY_TIMEOUT_MS);
      const entry: Pending = { replies: [], expected: undefined, resolve, timer };
      this.pending.set(id, entry);
    });
    try {
      const receivers = await unavailableOnLoss(
        this.publisher.publish(this.channel(), JSON.stringify({ id, from: this.replicaId, message })),
      );
      const entry = this.pending.get(id);
      if (entry) {
        entry.expected = receivers;
        this.settle(id, entry);
      }
    } catch (error) {
      const entry = this.pending.get(id);
      if (entry) clearTimeout(entry.timer);
      this.pending.delete(id);
      throw error;
    }
    return done;
  }

  private settle(id: string, entry: Pending): void {
    if (entry.expected === undefined || entry.replies.length < entry.expected) return;
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
    entry.replies.push(parsed.reply ?? null);
    this.settle(parsed.id, entry);
  }

  async close(): Promise<void> {
    for (const [, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve(entry.replies);
    }
    this.pending.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
