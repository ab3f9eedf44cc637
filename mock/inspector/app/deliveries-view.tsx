// The Deliveries view: per subscription, its webhook messages with every attempt (time, status,
// HTTP status, duration in real time, error), the retry pending in mock time, the payload, and a
// Resend button (a new attempt of the message's latest execution log). Filtered by subscription,
// by customer (one test's deliveries on a mock many tests share) and by the latest attempt's status.
import { useRef, useState } from 'preact/hooks';
import { post, seg } from './api';
import { useMockClock } from './clock';
import { customerLabel, useCustomers } from './customers';
import { duration, prettyPayload, relative, shortId } from './format';
import { useResource } from './live';
import type { DeliveryList, DeliveryMessage, ExecutionLog, Subscription } from './types';
import { Badge, Block, Empty, ErrorNote, Field, FirstCall, Time, useAction, Wide } from './ui';

const SUBSCRIPTION_EXAMPLE =
  '{"url": "http://127.0.0.1:3000/hooks", "resources": [{"name": "OPERATION", "events": ["OPERATION_COMPLETED"]}], "allowRetry": true}';

/** The message's state: its latest attempt's status, or NONE before the first attempt. */
type MessageStatus = ExecutionLog['status'] | 'NONE';
const STATUSES: ReadonlyArray<[MessageStatus, string]> = [
  ['FAILED', 'FAILED (latest attempt)'],
  ['SUCCESS', 'SUCCESS (latest attempt)'],
  ['NONE', 'Not yet attempted'],
];

const messageStatus = (message: DeliveryMessage): MessageStatus => message.attempts[message.attempts.length - 1]?.status ?? 'NONE';

/** The filters picked, kept while the page lives (the view is rebuilt on each visit). */
const remembered: { subscription: string; customer: string; status: MessageStatus | '' } = { subscription: '', customer: '', status: '' };

/** Real time from sending to the answer (or the time-out), as the mock measured it; '—' when not kept. */
function attemptDuration(message: DeliveryMessage, log: ExecutionLog): string {
  const ms = message.durationsMs[log.id];
  return ms === undefined ? '—' : duration(ms);
}

function MessageCard({ subscription, message }: { subscription: Subscription; message: DeliveryMessage }) {
  const { now } = useMockClock();
  const action = useAction();
  const latest = message.attempts[message.attempts.length - 1];
  const titleId = `message-${subscription.id}-${message.messageId}`;
  const resend = () =>
    action.run(async () => {
      if (!latest) throw new Error('This message has no attempt to resend yet.');
      const log = await post<ExecutionLog>(`/_mock/subscriptions/${seg(subscription.id)}/execution-logs/${seg(latest.id)}/resend`);
      return `Resent: the new attempt is ${log.status}${log.httpStatus ? ` (HTTP ${log.httpStatus})` : ''}.`;
    });

  return (
    <article class="card" aria-labelledby={titleId}>
      <div class="card-head">
        <h4 id={titleId}>
          {message.eventType} <span class="muted">message {shortId(message.messageId)}</span>
        </h4>
        <Badge status={latest?.status ?? 'PENDING'} label={latest ? latest.status : 'NOT YET ATTEMPTED'} />
      </div>
      <p>
        {message.nextAttemptAt ? (
          <>
            Next retry at <Time iso={message.nextAttemptAt} /> (mock time, {relative(message.nextAttemptAt, now)})
          </>
        ) : (
          'No retry pending.'
        )}
      </p>
      <Wide label="Attempts">
        <table class="list compact">
          <caption>Attempts, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time</th>
              <th scope="col">Status</th>
              <th scope="col">HTTP status</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {message.attempts.map((log, index) => (
              <tr key={log.id}>
                <td class="num">{index + 1}</td>
                <td>
                  <Time iso={log.createdAt} precise />
                </td>
                <td>
                  <Badge status={log.status} />
                </td>
                <td class="num">{log.httpStatus === 0 ? '0 (no answer)' : log.httpStatus}</td>
                <td class="num">{attemptDuration(message, log)}</td>
                <td class="prose">{log.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Wide>
      <details>
        <summary>Payload</summary>
        <Block label={`Payload of message ${shortId(message.messageId)}`} text={prettyPayload(message.payload)} />
      </details>
      <div class="actions">
        <button type="button" disabled={action.busy || !latest} onClick={resend}>
          Resend
        </button>
        {action.line}
      </div>
    </article>
  );
}

export function DeliveriesView() {
  const [filter, setFilter] = useState(remembered.subscription);
  const [status, setStatus] = useState(remembered.status);
  const [customerFilter, setCustomerFilter] = useState(remembered.customer);
  const list = useResource<DeliveryList>(`/_mock/deliveries${filter ? `?subscriptionId=${encodeURIComponent(filter)}` : ''}`, [
    'deliveries',
    'jobs',
  ]);
  const all = list.data?.data ?? [];
  const { byId } = useCustomers(
    [],
    all.map((group) => group.customerId),
  );
  // Every customer seen, so the picker keeps them while one is picked.
  const customersSeen = useRef(new Set<string>());
  for (const group of all) customersSeen.current.add(group.customerId);
  const groups = customerFilter === '' ? all : all.filter((group) => group.customerId === customerFilter);
  // Every subscription seen, so the picker keeps them while one is picked.
  const known = useRef(new Map<string, string>());
  for (const group of groups) known.current.set(group.subscription.id, `${shortId(group.subscription.id)} ${group.subscription.url}`);
  const pick = (id: string) => {
    remembered.subscription = id;
    setFilter(id);
  };
  const pickCustomer = (id: string) => {
    remembered.customer = id;
    setCustomerFilter(id);
  };
  const pickStatus = (value: MessageStatus | '') => {
    remembered.status = value;
    setStatus(value);
  };

  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div class="toolbar">
        <Field label="Subscription">
          <select value={filter} onChange={(event) => pick(event.currentTarget.value)}>
            <option value="">All subscriptions</option>
            {[...known.current].map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Customer">
          <select value={customerFilter} onChange={(event) => pickCustomer(event.currentTarget.value)}>
            <option value="">All customers</option>
            {[...customersSeen.current].map((id) => {
              const customer = byId.get(id);
              return (
                <option key={id} value={id}>
                  {customer ? customerLabel(customer) : `customer ${shortId(id)}`}
                </option>
              );
            })}
          </select>
        </Field>
        <Field label="Status">
          <select value={status} onChange={(event) => pickStatus(event.currentTarget.value as MessageStatus | '')}>
            <option value="">Any status</option>
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorNote message={list.error} />
      {all.length === 0 && list.loading && <Empty>Loading…</Empty>}
      {all.length > 0 && groups.length === 0 && <Empty>No subscription of this customer.</Empty>}
      {all.length === 0 && !list.loading && !list.error && (
        <FirstCall>
          No subscription yet. Subscribe a URL to webhooks with <code>POST /api/subscriptions</code> (with a bearer token), for example{' '}
          <code>{SUBSCRIPTION_EXAMPLE}</code>: each message sent to it is listed here with every attempt.
        </FirstCall>
      )}
      {groups.map(({ subscription, customerId, messages: sent }) => {
        const customer = byId.get(customerId);
        const messages = status === '' ? sent : sent.filter((message) => messageStatus(message) === status);
        return (
          <section key={subscription.id} class="group" aria-labelledby={`subscription-${subscription.id}`}>
            <h3 id={`subscription-${subscription.id}`}>
              Subscription {shortId(subscription.id)} <code>{subscription.url}</code>
            </h3>
            <p class="muted">
              {customer ? customerLabel(customer) : `customer ${shortId(customerId)}`}; retries {subscription.allowRetry ? 'on' : 'off'};
              {` ${sent.length} message${sent.length === 1 ? '' : 's'}`}
              {status !== '' && `, ${messages.length} with this status`}
            </p>
            {sent.length === 0 && <Empty>No message yet: one is sent when an event it subscribes to happens.</Empty>}
            {sent.length > 0 && messages.length === 0 && <Empty>No message with this status.</Empty>}
            <div class="cards cards-wide">
              {messages.map((message) => (
                <MessageCard key={message.messageId} subscription={subscription} message={message} />
              ))}
            </div>
          </section>
        );
      })}
    </section>
  );
}
