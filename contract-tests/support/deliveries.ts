// The suite's webhook receiver and the check of what it receives. The receiver is the mock
// package's scripted one (mock/receiver, which loads nothing else of the mock): one server, an
// endpoint (a path of its own) per subscription, on loopback for a local target, or listening on
// CONTRACT_WEBHOOK_PORT behind CONTRACT_WEBHOOK_URL for a remote one. A delivery is checked
// against the document's `webhooks` section: a JSON POST with X-Message-Id and X-Event-Type,
// whose payload matches that event's schema. Drift fails against a mock and is recorded
// otherwise, as for API responses.
import { basename } from 'node:path';
import { expect } from '@jest/globals';
import { startReceiver, type Delivery as Received, type Receiver } from '../../mock/receiver/receiver';
import { ContractViolation } from './client';
import { record } from './run';
import type { Session } from './session';
import { settings } from './settings';

/** The suite's receiver; a request to no endpoint of it is answered 404. The caller closes it. */
export function startSuiteReceiver(): Promise<Receiver> {
  const { webhookUrl, webhookPort } = settings();
  const fallback = { status: 404 };
  return startReceiver(webhookUrl ? { host: '0.0.0.0', port: webhookPort, publicUrl: webhookUrl, fallback } : { fallback });
}

export interface Delivery {
  messageId: string;
  eventType: string;
  payload: {
    id: string;
    customerId: string;
    eventType: string;
    atTime: string;
    data?: { id: string; [key: string]: unknown };
    [key: string]: unknown;
  };
}

export function checkDelivery(session: Session, received: Received): Delivery {
  const problems: string[] = [];
  const eventType = String(received.headers['x-event-type'] ?? '');
  const messageId = String(received.headers['x-message-id'] ?? '');
  if (received.method !== 'POST') problems.push(`method ${received.method}, not POST`);
  if (!/^application\/json\b/.test(String(received.headers['content-type'] ?? '')))
    problems.push(`content-type ${received.headers['content-type']}`);
  if (!messageId) problems.push('no X-Message-Id');
  if (!session.target.contract.webhookEvents.includes(eventType))
    problems.push(`X-Event-Type ${JSON.stringify(eventType)} is not an event of the document`);
  let payload: Delivery['payload'] | undefined;
  try {
    payload = JSON.parse(received.body) as Delivery['payload'];
  } catch {
    problems.push('the body is not JSON');
  }
  if (payload && eventType) {
    const { errors, drift } = session.target.contract.checkWebhook(eventType, payload);
    problems.push(...errors.map((e) => `payload.${e.field} ${e.message}`));
    if (session.caps.mock) problems.push(...drift.map((e) => `drift: payload.${e.field} ${e.message}`));
    else
      for (const e of drift)
        record({ kind: 'webhook-drift', file: basename(expect.getState().testPath ?? ''), eventType, field: e.field, message: e.message });
    if (payload.eventType !== undefined && payload.eventType !== eventType)
      problems.push(`payload.eventType ${payload.eventType} differs from X-Event-Type ${eventType}`);
  }
  if (problems.length)
    throw new ContractViolation(
      `webhook ${eventType || '?'} breaks the document:\n  - ${problems.join('\n  - ')}\n  body: ${received.body.slice(0, 600)}`,
    );
  return { messageId, eventType, payload: payload! };
}
