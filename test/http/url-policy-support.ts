// For the URL policy tests: a fake resolver (no real DNS in tests) and a deposit whose
// OPERATION_REQUESTED event is delivered, or refused, before it returns.
import type { ResolvedAddress } from '../../mock/domain/url-policy';
import type { Authed, Harness } from './harness';
import { demo } from './fixture-ids';

const d = demo();
const account = d.funded(d.c1.id);

/** Subscribes to the event a deposit raises. */
export const operationsOnly = [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }];

/** A resolver the test rewrites as it goes; it records every name asked. */
export function fakeDns() {
  const table = new Map<string, ResolvedAddress[]>();
  const asked: string[] = [];
  const set = (name: string, ...addresses: string[]) =>
    table.set(
      name,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  const lookup = (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const found = table.get(hostname);
    if (!found) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(found);
  };
  return { set, lookup, asked, forget: (name: string) => table.delete(name) };
}

/** A deposit of customer 1; resolves once its deliveries have been attempted. */
export async function deposit(api: Authed, h: Harness): Promise<void> {
  const q = (
    await api.post('/v1/quotes', { accountId: account.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
  ).body;
  await api.post('/v1/operations/deposits', { accountId: account.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201);
  await h.mock.services.webhooks.idle();
}
