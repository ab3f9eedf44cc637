// Shared steps of the control API tests: the /_mock client, operations made through the
// service API, and waiting for something that happens after an answer (no timed assertions).
import type { Authed, Harness } from '../http/harness';
import { demo } from '../http/fixture-ids';
import { HANG_GUARD_MS } from '../support/waits';

export const d = demo();
export const funded = d.funded(d.c1.id);
export const beneficiary = d.beneficiaryOf(d.c1.id);
export const reason = { code: 'MANUAL_REVIEW', message: 'Held for a compliance review.' };

/** The control API, as a client sees it: JSON, no token, no idempotency key. */
export function control(h: Harness) {
  return {
    get: (path: string) => h.http.get(`/_mock${path}`),
    post: (path: string, body?: unknown) =>
      body === undefined ? h.http.post(`/_mock${path}`) : h.http.post(`/_mock${path}`).send(body as object),
    put: (path: string, body: unknown) => h.http.put(`/_mock${path}`).send(body as object),
    delete: (path: string) => h.http.delete(`/_mock${path}`),
  };
}

export async function quote(api: Authed, sourceAmount = '10.00', accountId = funded.id) {
  return (await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount }).expect(201)).body;
}

export async function deposit(api: Authed, sourceAmount = '10.00', accountId = funded.id) {
  const q = await quote(api, sourceAmount, accountId);
  return (await api.post('/v1/operations/deposits', { accountId, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)).body;
}

export async function withdrawal(api: Authed, sourceAmount = '10.00', accountId = funded.id, beneficiaryId = beneficiary.id) {
  const q = await quote(api, sourceAmount, accountId);
  return (
    await api
      .post('/v1/operations/withdrawals', { accountId, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiaryId } })
      .expect(201)
  ).body;
}

/**
 * Retries `check` until it passes, 5 ms apart: a wait for what happens after an answer, however
 * long a busy machine takes. Only a hang (HANG_GUARD_MS) ends it, with the check's last failure.
 */
export async function eventually<T>(check: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > HANG_GUARD_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
