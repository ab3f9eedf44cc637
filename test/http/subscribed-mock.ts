// A mock with one subscription of customer 1 pointing at a loopback receiver, for tests about
// which events a transition sends: deliveries are awaited and the receiver emptied after each test.
import { afterAll, afterEach, beforeAll } from '@jest/globals';
import type { AppOptions } from '../../mock/app';
import { startMock, type Authed, type Harness } from './harness';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';

export interface SubscribedMock {
  h: Harness;
  api: Authed;
  receiver: Receiver;
}

/** Registers the jest hooks; the returned object is filled in before the first test runs. */
export function useSubscribedMock(subscription: Record<string, unknown>, options: AppOptions = {}): SubscribedMock {
  const env = {} as SubscribedMock;
  beforeAll(async () => {
    env.h = await startMock(options);
    env.api = await env.h.as();
    env.receiver = await startReceiver();
    await env.api.post('/api/subscriptions', { url: env.receiver.url, ...subscription }).expect(201);
  });
  afterEach(async () => {
    await env.h.mock.services.webhooks.idle();
    env.receiver.received.length = 0;
  });
  afterAll(async () => {
    await env.h?.close();
    await env.receiver?.close();
  });
  return env;
}
