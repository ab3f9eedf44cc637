// The State view's other records: quotes (live, consumed, expired by the mock clock),
// beneficiaries with their payment instructions (approve, reject), subscriptions.
import { post, seg } from './api';
import { amount, shortId } from './format';
import type { Beneficiary, PaymentInstruction, QuoteView, Reason, Subscription } from './types';
import { Badge, Empty, ShortId, Time, useAction, Wide } from './ui';

export function QuotesTable({ quotes }: { quotes: QuoteView[] }) {
  if (quotes.length === 0)
    return (
      <Empty>
        No quote yet: <code>POST /v1/quotes</code> makes one.
      </Empty>
    );
  return (
    <Wide label="Quotes">
      <table class="list">
        <caption class="visually-hidden">Quotes, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Quote</th>
            <th scope="col">Account</th>
            <th scope="col">Source</th>
            <th scope="col">Target</th>
            <th scope="col">Rate</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Operation</th>
          </tr>
        </thead>
        <tbody>
          {quotes.map(({ quote, status, operationId }) => (
            <tr key={quote.id}>
              <td>
                <ShortId id={quote.id} />
              </td>
              <td>
                <ShortId id={quote.accountId} />
              </td>
              <td class="num">{amount(quote.sourceAmount)}</td>
              <td class="num">{amount(quote.targetAmount)}</td>
              <td class="num">{quote.rate}</td>
              <td>
                <Badge status={status} />
              </td>
              <td>
                <Time iso={quote.expiresAt} />
              </td>
              <td>
                <ShortId id={operationId} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Wide>
  );
}

function beneficiaryName(beneficiary: Beneficiary): string {
  const entity = beneficiary.entity;
  return entity.type === 'COMPANY' ? entity.legalName : `${entity.firstName} ${entity.lastName}`;
}

export function BeneficiaryCard({ beneficiary, reason }: { beneficiary: Beneficiary; reason: Reason }) {
  const action = useAction();
  const titleId = `beneficiary-${beneficiary.id}`;
  const act = (instruction: PaymentInstruction, verb: 'approve' | 'reject') =>
    action.run(async () => {
      const path = `/_mock/beneficiaries/${seg(beneficiary.id)}/payment-instructions/${seg(instruction.id)}/${verb}`;
      const after = await post<Beneficiary>(path, verb === 'reject' ? { reason } : undefined);
      const now = after.paymentInstructions.find((one) => one.id === instruction.id);
      return `Payment instruction ${shortId(instruction.id)} is now ${now?.currentState.status ?? 'changed'}.`;
    });

  return (
    <article class="card" aria-labelledby={titleId}>
      <div class="card-head">
        <h4 id={titleId}>
          {beneficiaryName(beneficiary)} <span class="muted">beneficiary {shortId(beneficiary.id)}</span>
        </h4>
        <span class="muted">{beneficiary.relationshipType}</span>
      </div>
      <Wide label="Payment instructions">
        <table class="list compact">
          <caption>Payment instructions</caption>
          <thead>
            <tr>
              <th scope="col">Instruction</th>
              <th scope="col">Asset</th>
              <th scope="col">Address</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {beneficiary.paymentInstructions.map((instruction) => {
              const status = instruction.currentState.status ?? 'CREATED';
              const open = status === 'CREATED' || status === 'ACTION_REQUIRED';
              return (
                <tr key={instruction.id}>
                  <td>
                    <ShortId id={instruction.id} />
                  </td>
                  <td>{instruction.asset}</td>
                  <td>
                    {instruction.address.rail} <code>{instruction.address.dictKey}</code>
                  </td>
                  <td>
                    <Badge status={status} />
                  </td>
                  <td>
                    {open && (
                      <span class="actions">
                        <button
                          type="button"
                          disabled={action.busy}
                          aria-label={`Approve instruction ${shortId(instruction.id)}`}
                          onClick={() => act(instruction, 'approve')}
                        >
                          Approve
                        </button>
                        <button
                          type="button"
                          disabled={action.busy}
                          aria-label={`Reject instruction ${shortId(instruction.id)}`}
                          onClick={() => act(instruction, 'reject')}
                        >
                          Reject
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Wide>
      {action.line}
    </article>
  );
}

export function SubscriptionsTable({ subscriptions }: { subscriptions: Subscription[] }) {
  if (subscriptions.length === 0)
    return (
      <Empty>
        No subscription: <code>POST /api/subscriptions</code> makes one.
      </Empty>
    );
  return (
    <Wide label="Subscriptions">
      <table class="list">
        <caption class="visually-hidden">Subscriptions</caption>
        <thead>
          <tr>
            <th scope="col">Subscription</th>
            <th scope="col">URL</th>
            <th scope="col">Retries</th>
            <th scope="col">Events</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((subscription) => (
            <tr key={subscription.id}>
              <td>
                <ShortId id={subscription.id} />
              </td>
              <td>
                <code>{subscription.url}</code>
              </td>
              <td>{subscription.allowRetry ? 'yes' : 'no'}</td>
              <td>
                {subscription.resources.map((resource) => (
                  <div key={resource.name}>
                    {resource.name}: {resource.events.join(', ')}
                  </div>
                ))}
              </td>
              <td>
                <Time iso={subscription.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Wide>
  );
}
