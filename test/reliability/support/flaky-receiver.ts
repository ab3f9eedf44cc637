// The subscriber that fails a seeded third of its deliveries: the scripted webhook receiver
// (mock/receiver) answering each request by its message id and attempt number (so a "random
// third" of deliveries fail, but never the retries the test keeps for them), recording every
// request it got, whatever it answered.
import { startReceiver, type Answer } from '../../../mock/receiver/receiver';

export type Fate = 'ok' | 'status500' | 'reset' | 'hang';

const ANSWERS: Record<Fate, Answer> = {
  ok: { status: 200, body: 'ok' },
  status500: { status: 500, body: 'status500' },
  reset: 'reset',
  hang: 'hang',
};
const FATES = Object.keys(ANSWERS) as Fate[];

export interface Arrival {
  path: string;
  messageId: string;
  eventType: string;
  body: string;
  /** 0 for the first request with this message id, 1 for the next... */
  attempt: number;
  fate: Fate;
}

export interface FlakyReceiver {
  base: string;
  /** Every request, in arrival order. */
  readonly arrivals: Arrival[];
  close(): Promise<void>;
}

export async function startFlakyReceiver(decide: (messageId: string, attempt: number) => Fate): Promise<FlakyReceiver> {
  const receiver = await startReceiver({
    fallback: (arrival) => ANSWERS[decide(String(arrival.headers['x-message-id']), arrival.attempt)],
    // Longer than any test: an idle keep-alive socket closed under the mock's feet would turn into
    // a failed attempt this receiver never saw.
    keepAliveTimeoutMs: 120_000,
  });
  return {
    base: receiver.base,
    get arrivals() {
      return receiver.received.map((d) => ({
        path: d.path,
        messageId: String(d.headers['x-message-id']),
        eventType: String(d.headers['x-event-type']),
        body: d.body,
        attempt: d.attempt,
        fate: FATES.find((fate) => ANSWERS[fate] === d.answer)!,
      }));
    },
    close: () => receiver.close(),
  };
}

/** A stable 32-bit hash of a string (FNV-1a), to derive a seeded coin per message and attempt. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
