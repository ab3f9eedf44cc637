// An account of the State view: owner, balances, assets and their onboarding status, the state
// history, and the review actions (submit, approve, reject).
import { post, seg } from './api';
import { shortId } from './format';
import type { Account, AccountView, Reason } from './types';
import { Badge, ShortId, Time, useAction } from './ui';

export function ownerName(account: Account): string {
  const owner = account.owner;
  return owner.type === 'COMPANY' ? owner.legalName : `${owner.firstName} ${owner.lastName}`;
}

export function AccountCard({ view, reason }: { view: AccountView; reason: Reason }) {
  const { account, balances, review } = view;
  const action = useAction();
  const status = account.currentState.status;
  const titleId = `account-${account.id}`;
  const act = (verb: string, body?: unknown) =>
    action.run(async () => {
      const after = await post<Account>(`/_mock/accounts/${seg(account.id)}/${verb}`, body);
      return `Account ${shortId(after.id)} is now ${after.currentState.status}.`;
    });
  const assets = Object.entries(balances);

  return (
    <article class="card" aria-labelledby={titleId}>
      <div class="card-head">
        <h4 id={titleId}>
          {ownerName(account)} <span class="muted">account {shortId(account.id)}</span>
        </h4>
        <Badge status={status} />
      </div>
      <p>
        Review: {review === 'SUBMITTED' ? 'submitted' : 'not submitted'}
        {account.sourceAccountId && (
          <>
            ; sub-account of <ShortId id={account.sourceAccountId} />
          </>
        )}
        ; created <Time iso={account.createdAt} />
      </p>
      <table class="list compact">
        <caption>Balances and assets</caption>
        <thead>
          <tr>
            <th scope="col">Asset</th>
            <th scope="col">Balance</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {account.assets.map((asset) => (
            <tr key={asset.currency}>
              <th scope="row">{asset.currency}</th>
              <td class="num">{balances[asset.currency] ?? '—'}</td>
              <td>
                <Badge status={asset.status} />
              </td>
            </tr>
          ))}
          {assets
            .filter(([code]) => !account.assets.some((asset) => asset.currency === code))
            .map(([code, balance]) => (
              <tr key={code}>
                <th scope="row">{code}</th>
                <td class="num">{balance}</td>
                <td>—</td>
              </tr>
            ))}
        </tbody>
      </table>
      <h5>State history</h5>
      <ol class="timeline">
        {account.states.map((state, index) => (
          <li key={index}>
            <Time iso={state.createdAt} /> <Badge status={state.status} />
            {state.reason && (
              <>
                {' '}
                <code>{state.reason.code}</code> {state.reason.message}
              </>
            )}
          </li>
        ))}
      </ol>
      {(status === 'ACTION_REQUIRED' || status === 'UNDER_REVIEW') && (
        <div class="actions">
          {status === 'ACTION_REQUIRED' && (
            <button type="button" disabled={action.busy} onClick={() => act('submit-review')}>
              Submit for review
            </button>
          )}
          {status === 'UNDER_REVIEW' && (
            <>
              <button type="button" disabled={action.busy} onClick={() => act('approve')}>
                Approve
              </button>
              <button type="button" disabled={action.busy} onClick={() => act('reject', { reason })}>
                Reject
              </button>
            </>
          )}
        </div>
      )}
      {action.line}
    </article>
  );
}
