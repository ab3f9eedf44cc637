// An operation of the State view: amounts, state timeline and transactions, and the control
// actions that move it (settle, pay a deposit's charge, fail, flag as action required).
import { post, seg } from './api';
import { amount, shortId } from './format';
import type { Operation, OperationView, Reason } from './types';
import { Badge, ShortId, Time, useAction, Wide } from './ui';

const KIND: Record<Operation['intent']['type'], string> = {
  DEPOSIT: 'Deposit',
  WITHDRAWAL: 'Withdrawal',
  SWAP: 'Swap',
  TRANSFER: 'Transfer',
};

export function operationTitle(operation: Operation): string {
  return `${KIND[operation.intent.type]} ${shortId(operation.id)}`;
}

export function OperationCard({ view, reason }: { view: OperationView; reason: Reason }) {
  const { operation, timeline } = view;
  const action = useAction();
  const status = operation.currentState.status;
  const open = status === 'REQUESTED' || status === 'ACTION_REQUIRED';
  const titleId = `operation-${operation.id}`;
  const act = (verb: string, body?: unknown) =>
    action.run(async () => {
      const after = await post<Operation>(`/_mock/operations/${seg(operation.id)}/${verb}`, body);
      return `${operationTitle(after)} is now ${after.currentState.status}.`;
    });

  return (
    <article class="card" aria-labelledby={titleId}>
      <div class="card-head">
        <h4 id={titleId}>{operationTitle(operation)}</h4>
        <Badge status={status} />
      </div>
      <p>
        {amount(operation.sourceAmount)} → {amount(operation.targetAmount)}; account <ShortId id={operation.accountId} />; created{' '}
        <Time iso={operation.createdAt} />
        {operation.currentState.reason && (
          <>
            ; reason <code>{operation.currentState.reason.code}</code>: {operation.currentState.reason.message}
          </>
        )}
      </p>
      <h5>Timeline</h5>
      <ol class="timeline">
        {timeline.map((entry, index) => (
          <li key={index}>
            <Time iso={entry.at} /> <Badge status={entry.status} /> <span class="muted">{entry.eventType}</span>
            {entry.reason && (
              <>
                {' '}
                <code>{entry.reason.code}</code> {entry.reason.message}
              </>
            )}
          </li>
        ))}
      </ol>
      {operation.transactions.length > 0 && (
        <Wide label="Transactions (confirmed)">
          <table class="list">
            <caption>Transactions (confirmed)</caption>
            <thead>
              <tr>
                <th scope="col">Rail</th>
                <th scope="col">Direction</th>
                <th scope="col">Amount</th>
                <th scope="col">Confirmed</th>
              </tr>
            </thead>
            <tbody>
              {operation.transactions.map((transaction) => (
                <tr key={transaction.id}>
                  <td>{transaction.rail}</td>
                  <td>{transaction.direction}</td>
                  <td class="num">{amount(transaction.amount)}</td>
                  <td>
                    <Time iso={transaction.confirmedAt} precise />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Wide>
      )}
      {open && (
        <div class="actions">
          <button type="button" disabled={action.busy} onClick={() => act('settle')}>
            Settle
          </button>
          {operation.intent.type === 'DEPOSIT' && (
            <button type="button" disabled={action.busy} onClick={() => act('pay')}>
              Pay
            </button>
          )}
          <button type="button" disabled={action.busy} onClick={() => act('fail', { reason })}>
            Fail
          </button>
          {status === 'REQUESTED' && (
            <button type="button" disabled={action.busy} onClick={() => act('action-required', { reason })}>
              Flag
            </button>
          )}
        </div>
      )}
      {action.line}
    </article>
  );
}
