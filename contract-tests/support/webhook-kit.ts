// The webhook tests' own receiver and the calls they share: a subscription to
// BENEFICIARY_INSTRUCTION_CREATED (saving a beneficiary with a PIX instruction causes one, and
// moves no money), the event itself, and the subscription's execution logs.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from '@jest/globals';
import type { Receiver } from '../../mock/receiver/receiver';
import { capabilities } from './capabilities';
import { startSuiteReceiver } from './deliveries';
import { eventually } from './eventually';
import { person, pixInstruction } from './samples';
import type { Session } from './session';
import type { Beneficiary, ExecutionLog, Page, Subscription } from './types';

export const INSTRUCTION_CREATED = [{ name: 'BENEFICIARY', events: ['BENEFICIARY_INSTRUCTION_CREATED'] }];

export interface WebhookKit {
  /** The file's receiver (started when the target can deliver webhooks). */
  receiver: () => Receiver;
  subscribe: (url: string, extra?: Record<string, unknown>) => Promise<Subscription>;
  /** Saves a beneficiary with one PIX instruction: one BENEFICIARY_INSTRUCTION_CREATED event, delivered before it returns. */
  trigger: (dictKey?: string) => Promise<Beneficiary>;
  logs: (subscriptionId: string, query?: Record<string, string | number>) => Promise<Page<ExecutionLog>>;
  /** The subscription's logs once there are at least `count` (deliveries are asynchronous). */
  logsAtLeast: (subscriptionId: string, count: number, query?: Record<string, string | number>) => Promise<Page<ExecutionLog>>;
}

/** Starts the receiver for the test file (its own hooks) and gives the shared calls. */
export function useWebhookKit(session: () => Session): WebhookKit {
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    if (!capabilities().webhooks) return;
    receiver = await startSuiteReceiver();
  });
  // Its own afterAll, not session().onClose: that throws when the session did not open
  // (a target that breaks the control API), and the receiver would keep jest from exiting.
  afterAll(async () => {
    await receiver?.close();
  });

  const logs = async (subscriptionId: string, query: Record<string, string | number> = {}) => {
    const res = await session().api.get<Page<ExecutionLog>>(`/v1/subscriptions/${subscriptionId}/executionLogs`, { query });
    expect(res.status).toBe(200);
    return res.body;
  };
  return {
    receiver: () => {
      if (!receiver) throw new Error('the webhook receiver is not started: the target cannot deliver webhooks');
      return receiver;
    },
    subscribe: async (url, extra = {}) => {
      const { api, onClose } = session();
      const res = await api.post<Subscription>('/api/subscriptions', { url, resources: INSTRUCTION_CREATED, ...extra });
      expect(res.status).toBe(201);
      onClose(() => api.delete(`/v1/subscriptions/${res.body.id}`));
      return res.body;
    },
    trigger: async (dictKey = `${randomUUID()}@example.com`) => {
      const res = await session().api.post<Beneficiary>('/v1/beneficiaries', {
        entity: person,
        relationshipType: 'THIRD_PARTY',
        paymentInstructions: [pixInstruction(dictKey)],
      });
      expect(res.status).toBe(201);
      await session().deliveriesIdle();
      return res.body;
    },
    logs,
    logsAtLeast: (subscriptionId, count, query = {}) =>
      eventually(
        () => logs(subscriptionId, { limit: 100, ...query }),
        (page) => page.data.length >= count,
        `${count} execution logs`,
      ),
  };
}
