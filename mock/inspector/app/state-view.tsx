// The State view: one customer's records (GET /_mock/state/{customerId}), refreshed on `state`
// changes, with the control actions where they belong; operations first, the records most acted
// on. The reason given to fail, flag and reject is chosen once, at the top.
import { useState } from 'preact/hooks';
import { customerLabel, useCustomers } from './customers';
import { useResource } from './live';
import { AccountCard } from './state-accounts';
import { OperationCard } from './state-operations';
import { BeneficiaryCard, QuotesTable, SubscriptionsTable } from './state-records';
import type { CustomerState, Reason } from './types';
import { Empty, ErrorNote, Field, FirstCall } from './ui';

/** The service document's reason codes (Reason.code's x-extensible-enum); the control API takes no other. */
const REASON_CODES = [
  'INSUFFICIENT_BALANCE',
  'PAYMENT_NOT_RECEIVED',
  'MANUAL_REVIEW',
  'COMPLIANCE_REJECTED',
  'DOCUMENT_REJECTED',
  'BENEFICIARY_REJECTED',
];

const SECTIONS = [
  ['operations', 'Operations'],
  ['accounts', 'Accounts'],
  ['quotes', 'Quotes'],
  ['beneficiaries', 'Beneficiaries'],
  ['subscriptions', 'Subscriptions'],
] as const;

/** In-page links would replace the view's #state in the address: move focus (and the view) instead. */
function jump(event: Event, id: string) {
  event.preventDefault();
  const target = document.getElementById(`state-${id}`);
  target?.scrollIntoView({ block: 'start' });
  target?.focus();
}

/** The customer last picked, kept while the page lives (the view is rebuilt on each visit). */
let remembered: string | undefined;

export function StateView() {
  const { customers, list } = useCustomers(['state']);
  const [picked, setPicked] = useState<string | undefined>(remembered);
  const [reason, setReason] = useState<Reason>({ code: 'INSUFFICIENT_BALANCE', message: 'Set from the fos-mock inspector.' });
  const customerId = picked && customers.some((c) => c.id === picked) ? picked : customers[0]?.id;
  const state = useResource<CustomerState>(customerId ? `/_mock/state/${encodeURIComponent(customerId)}` : null, ['state']);
  const s = state.data;
  const pick = (id: string) => {
    remembered = id;
    setPicked(id);
  };

  return (
    <section aria-labelledby="state-title">
      <h2 id="state-title">State</h2>
      <div class="toolbar">
        <Field label="Customer">
          <select value={customerId ?? ''} onChange={(event) => pick(event.currentTarget.value)}>
            {customers.map((customer) => (
              <option key={customer.id} value={customer.id}>
                {customerLabel(customer)}
              </option>
            ))}
          </select>
        </Field>
        <fieldset class="reason">
          <legend>Reason for fail, flag and reject</legend>
          <Field label="Reason code">
            <select value={reason.code} onChange={(event) => setReason({ ...reason, code: event.currentTarget.value })}>
              {REASON_CODES.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Reason message">
            <input type="text" value={reason.message} onInput={(event) => setReason({ ...reason, message: event.currentTarget.value })} />
          </Field>
        </fieldset>
      </div>
      <ErrorNote message={list.error ?? state.error} />
      {!s && (state.loading || list.loading) && <Empty>Loading…</Empty>}
      {!s && !state.loading && !list.loading && customers.length === 0 && (
        <FirstCall>
          No customer. <code>POST /_mock/customers</code> makes one (with copies of demo-client&apos;s accounts), or start the mock with
          fixtures that hold some.
        </FirstCall>
      )}
      {s && (
        <>
          {s.truncated.length > 0 && <p class="note">Only the newest 200 are listed of: {s.truncated.join(', ')}.</p>}
          <nav aria-label="Sections of the state">
            <ul class="jump">
              {SECTIONS.map(([id, label]) => (
                <li key={id}>
                  <a href={`#state-${id}`} onClick={(event) => jump(event, id)}>
                    {label} ({s[id].length})
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <h3 id="state-operations" tabIndex={-1}>
            Operations ({s.operations.length})
          </h3>
          {s.operations.length === 0 && (
            <FirstCall>
              No operation yet. A quote (<code>POST /v1/quotes</code>) and a deposit with it (<code>POST /v1/operations/deposits</code>)
              make the first; settle it here, or let auto-settlement do it.
            </FirstCall>
          )}
          <div class="cards">
            {s.operations.map((view) => (
              <OperationCard key={view.operation.id} view={view} reason={reason} />
            ))}
          </div>
          <h3 id="state-accounts" tabIndex={-1}>
            Accounts ({s.accounts.length})
          </h3>
          <div class="cards">
            {s.accounts.map((view) => (
              <AccountCard key={view.account.id} view={view} reason={reason} />
            ))}
          </div>
          <h3 id="state-quotes" tabIndex={-1}>
            Quotes ({s.quotes.length})
          </h3>
          <QuotesTable quotes={s.quotes} />
          <h3 id="state-beneficiaries" tabIndex={-1}>
            Beneficiaries ({s.beneficiaries.length})
          </h3>
          <div class="cards cards-wide">
            {s.beneficiaries.map((beneficiary) => (
              <BeneficiaryCard key={beneficiary.id} beneficiary={beneficiary} reason={reason} />
            ))}
          </div>
          <h3 id="state-subscriptions" tabIndex={-1}>
            Subscriptions ({s.subscriptions.length})
          </h3>
          <SubscriptionsTable subscriptions={s.subscriptions} />
        </>
      )}
    </section>
  );
}
