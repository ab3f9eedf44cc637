// Accounts: the list and the record, and PATCH /v1/accounts/{id}: the owner is replaced (sent
// identificationDocument, returned taxId; UBOs and assets kept) until the account is submitted
// for review, then 409 ACCOUNT_NOT_EDITABLE.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { describeWhen } from './support/capabilities';
import { without } from './support/json';
import { expectTransition } from './support/lifecycle';
import { allPages } from './support/preconditions';
import { companyOwner } from './support/samples';
import { beforeAllWhen, useSession } from './support/session';
import type { Account, Schemas } from './support/types';

const session = useSession();
let accounts: Account[];

beforeAllWhen([], async () => {
  accounts = await allPages<Account>(session().api, '/api/accounts');
});

/** The owner as a PATCH sends it, built from the owner as the account returns it. */
function ownerInput(owner: Account['owner']): Schemas['OwnerInput'] {
  if (owner.type === 'COMPANY') return { ...without(owner, 'taxId', 'ubos'), identificationDocument: owner.taxId };
  return { ...without(owner, 'taxId'), identificationDocument: owner.taxId };
}

describeWhen(['stateful'], 'reading accounts', () => {
  it('When the accounts are listed, then each is the customer’s and reads back identically [DOC-SCHEMA, REQUEST-ID]', async () => {
    expect(accounts.length).toBeGreaterThan(0);
    expect(new Set(accounts.map((a) => a.customer.id)).size).toBe(1);
    for (const account of accounts) {
      const res = await session().api.get<Account>(`/api/accounts/${account.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(account);
    }
  });

  it('When a sub-account names its source, then the source is one of the customer’s accounts', () => {
    for (const account of accounts.filter((a) => a.sourceAccountId !== null))
      expect(accounts.map((a) => a.id)).toContain(account.sourceAccountId);
  });

  it('When an account id is not a uuid, then it answers 400; an unknown one 404 [REQUEST-ID, VALIDATION-400, NOT-FOUND-404]', async () => {
    expect((await session().api.get('/api/accounts/12345')).status).toBe(400);
    expect((await session().api.get(`/api/accounts/${randomUUID()}`)).status).toBe(404);
  });
});

describeWhen(['writes', 'stateful'], 'replacing the owner', () => {
  /** The first account that takes a PATCH with its own owner (a no-op): an editable one. */
  async function editable(): Promise<Account | undefined> {
    for (const account of accounts) {
      const res = await session().api.patch(`/v1/accounts/${account.id}`, { owner: ownerInput(account.owner) });
      if (res.status === 200) return res.body as Account;
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('ACCOUNT_NOT_EDITABLE');
    }
    return undefined;
  }

  it(
    'When an editable account gets a new company owner, ' +
      'then taxId shows the sent identificationDocument and UBOs and assets are kept [ACCOUNT-OWNER-REPLACE]',
    async () => {
      const account = await editable();
      expect(account).toBeDefined();
      const res = await session().api.patch<Account>(`/v1/accounts/${account!.id}`, { owner: companyOwner });
      expect(res.status).toBe(200);
      expect(res.body.owner).toMatchObject({
        type: 'COMPANY',
        legalName: companyOwner.legalName,
        taxId: companyOwner.identificationDocument,
      });
      expect(res.body.owner).not.toHaveProperty('identificationDocument');
      if (account!.owner.type === 'COMPANY' && res.body.owner.type === 'COMPANY') expect(res.body.owner.ubos).toEqual(account!.owner.ubos);
      expect(res.body.assets).toEqual(account!.assets);
      expect((await session().api.get<Account>(`/api/accounts/${account!.id}`)).body.owner).toEqual(res.body.owner);
      // Put the original owner back (a shared target keeps its data).
      expect((await session().api.patch(`/v1/accounts/${account!.id}`, { owner: ownerInput(account!.owner) })).status).toBe(200);
    },
  );

  it.each([
    ['an owner without its required fields', { owner: { type: 'COMPANY', legalName: 'X' } }],
    ['an unknown owner type', { owner: { ...companyOwner, type: 'TRUST' } }],
    ['an address with a three-letter country', { owner: { ...companyOwner, address: { ...companyOwner.address, country: 'BRA' } } }],
    ['no owner at all', {}],
    ['an owner that is a string', { owner: 'ACME' }],
  ])('When the PATCH carries %s, then it answers 400 VALIDATION_ERROR [VALIDATION-400]', async (_name, body) => {
    const res = await session().api.patch(`/v1/accounts/${accounts[0]!.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describeWhen(['control'], 'the review lock (control API)', () => {
  it(
    'When the account is submitted for review, then a PATCH answers 409 ACCOUNT_NOT_EDITABLE; ' +
      'when review asks for action, then it is editable again [ACCOUNT-REVIEW-LOCK]',
    async () => {
      const { api, control } = session();
      let target: Account | undefined;
      for (const account of accounts) {
        if ((await api.patch(`/v1/accounts/${account.id}`, { owner: ownerInput(account.owner) })).status === 200) {
          target = account;
          break;
        }
      }
      expect(target).toBeDefined();
      await control!.submitReview(target!.id);
      const submitted = (await api.get<Account>(`/api/accounts/${target!.id}`)).body;
      expectTransition('account', target!.currentState.status, submitted.currentState.status);
      const locked = await api.patch(`/v1/accounts/${target!.id}`, { owner: companyOwner });
      expect(locked.status).toBe(409);
      expect(locked.body.code).toBe('ACCOUNT_NOT_EDITABLE');
      expect((await api.get<Account>(`/api/accounts/${target!.id}`)).body.owner).toEqual(target!.owner);
      await control!.requireAction(target!.id, { code: 'DOCUMENT_REJECTED', message: 'The articles of association are illegible.' });
      const flagged = (await api.get<Account>(`/api/accounts/${target!.id}`)).body;
      expectTransition('account', submitted.currentState.status, flagged.currentState.status);
      expect((await api.patch(`/v1/accounts/${target!.id}`, { owner: companyOwner })).status).toBe(200);
    },
  );
});
