// Another customer's records, for the tenancy checks: on a fos-mock a fresh customer with a
// quote, a deposit and a subscription of its own; elsewhere the records the customer given by
// --foreign-client-id already has (read, never written).
import { randomUUID } from 'node:crypto';
import type { Session } from '../scenarios/setup';
import type { ForeignIds } from './run-context';
import type { ExploreTarget } from './target';

export async function foreignRecords(target: ExploreTarget): Promise<ForeignIds> {
  const foreign = target.options.foreign;
  if (!target.isMock && !foreign) return {};
  // On a mock without --foreign-client-id: a fresh customer, never the run's own.
  const session = await target.session('explore: another customer', foreign ?? 'fresh');
  const ids: ForeignIds = {};
  if (session.customer.accounts[0]) ids.account = session.customer.accounts[0];
  if (session.customer.beneficiaries[0]) ids.beneficiary = session.customer.beneficiaries[0];
  const first = async (path: string) => {
    const answer = await send(target, session, 'GET', `${path}?limit=1`);
    return answer.status === 200 ? (answer.body as { data?: Array<{ id?: string }> }).data?.[0]?.id : undefined;
  };
  if (target.isMock && ids.account) {
    ids.key = randomUUID();
    const body = { accountId: ids.account, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' };
    const quote = await send(target, session, 'POST', '/v1/quotes', body, ids.key);
    const used = await send(target, session, 'POST', '/v1/quotes', {
      accountId: ids.account,
      sourceAsset: 'BRL',
      targetAsset: 'BRL',
      sourceAmount: '2.00',
    });
    ids.quote = (quote.body as { id?: string }).id;
    const deposit = await send(target, session, 'POST', '/v1/operations/deposits', {
      accountId: ids.account,
      quoteId: (used.body as { id?: string }).id,
      fundingInstruction: { rail: 'PIX' },
    });
    ids.operation = (deposit.body as { id?: string }).id;
    const subscription = await send(target, session, 'POST', '/api/subscriptions', {
      url: 'https://hooks.example.com/explore/another-customer',
      includeAll: true,
    });
    ids.subscription = (subscription.body as { id?: string }).id;
  } else {
    ids.operation = await first('/v1/operations');
    ids.subscription = await first('/v1/subscriptions');
  }
  for (const kind of Object.keys(ids) as Array<keyof ForeignIds>) if (typeof ids[kind] !== 'string') delete ids[kind];
  return ids;
}

function send(target: ExploreTarget, session: Session, method: string, path: string, body?: unknown, key: string = randomUUID()) {
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}` };
  if (method !== 'GET') headers['x-idempotency-key'] = key;
  return target.client.send(method, path, { body, headers });
}
