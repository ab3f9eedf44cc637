// Beneficiaries and their payment instructions: list, read, create, add an instruction, the
// request rules; with the control API, instruction approval and rejection and what a
// withdrawal makes of them.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { describeWhen } from './support/capabilities';
import { expectCreatedIn, expectTransition } from './support/lifecycle';
import { allPages, findAccounts } from './support/preconditions';
import { person, pixInstruction } from './support/samples';
import { useSession } from './support/session';
import type { Beneficiary, Quote } from './support/types';

const session = useSession();

describeWhen(['stateful'], 'reading beneficiaries', () => {
  it('When the beneficiaries are listed, then each is the customer’s and reads back identically', async () => {
    const all = await allPages<Beneficiary>(session().api, '/v1/beneficiaries');
    expect(new Set(all.map((b) => b.customerId)).size).toBeLessThanOrEqual(1);
    for (const b of all.slice(0, 10)) {
      const res = await session().api.get<Beneficiary>(`/v1/beneficiaries/${b.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(b);
    }
  });

  it('When a beneficiary id is not a uuid, then it answers 400; an unknown one 404 [VALIDATION-400, NOT-FOUND-404]', async () => {
    expect((await session().api.get('/v1/beneficiaries/ben-1')).status).toBe(400);
    const unknown = await session().api.get(`/v1/beneficiaries/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('RESOURCE_NOT_FOUND');
  });
});

// Saving beneficiaries moves no money: it runs against any target (and leaves them behind).
describeWhen(['stateful'], 'saving beneficiaries', () => {
  it(
    'When a beneficiary is created with a PIX instruction, ' +
      'then it is the customer’s, reads back, and lists [BENEFICIARY-INSTRUCTIONS]',
    async () => {
      const { api } = session();
      const instruction = pixInstruction();
      const res = await api.post<Beneficiary>('/v1/beneficiaries', {
        entity: person,
        relationshipType: 'THIRD_PARTY',
        paymentInstructions: [instruction],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ entity: person, relationshipType: 'THIRD_PARTY' });
      expect(res.body.paymentInstructions).toEqual([
        expect.objectContaining({ asset: 'BRL', address: instruction.address, documents: instruction.documents }),
      ]);
      expect((await api.get<Beneficiary>(`/v1/beneficiaries/${res.body.id}`)).body).toEqual(res.body);
      const listed = await allPages<Beneficiary>(api, '/v1/beneficiaries');
      expect(listed.map((b) => b.id)).toContain(res.body.id);
      expect(listed.every((b) => b.customerId === res.body.customerId)).toBe(true);
    },
  );

  it(
    'When a company beneficiary is created without instructions, ' + 'then it has none, and one can be added [BENEFICIARY-INSTRUCTIONS]',
    async () => {
      const { api } = session();
      const company = {
        type: 'COMPANY',
        legalName: 'Fornecedor Exemplo SA',
        identificationDocument: { type: 'CNPJ', value: '11222333000181', country: 'BR' },
      };
      const created = await api.post<Beneficiary>('/v1/beneficiaries', { entity: company, relationshipType: 'SELF_OWNED' });
      expect(created.status).toBe(201);
      expect(created.body.paymentInstructions).toEqual([]);
      const added = await api.post<Beneficiary>(
        `/v1/beneficiaries/${created.body.id}/paymentInstructions`,
        pixInstruction('fornecedor@example.com'),
      );
      expect(added.status).toBe(201);
      expect(added.body.id).toBe(created.body.id);
      expect(added.body.paymentInstructions).toHaveLength(1);
      expect(added.body.paymentInstructions[0]!.address).toEqual({ rail: 'PIX_KEY', dictKey: 'fornecedor@example.com' });
    },
  );

  it.each([
    ['an entity without its names', { entity: { ...person, firstName: undefined }, relationshipType: 'THIRD_PARTY' }],
    ['an unknown relationship type', { entity: person, relationshipType: 'COUSIN' }],
    ['an unknown entity type', { entity: { ...person, type: 'ROBOT' }, relationshipType: 'THIRD_PARTY' }],
    ['an instruction without an address', { entity: person, relationshipType: 'THIRD_PARTY', paymentInstructions: [{ asset: 'BRL' }] }],
    [
      'more than 20 instructions',
      { entity: person, relationshipType: 'THIRD_PARTY', paymentInstructions: Array.from({ length: 21 }, () => pixInstruction()) },
    ],
  ])('When a beneficiary has %s, then it answers 400 VALIDATION_ERROR [VALIDATION-400]', async (_name, body) => {
    const res = await session().api.post('/v1/beneficiaries', JSON.parse(JSON.stringify(body)));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('When an instruction is added to an unknown beneficiary, then it answers 404 [NOT-FOUND-404]', async () => {
    const res = await session().api.post(`/v1/beneficiaries/${randomUUID()}/paymentInstructions`, pixInstruction());
    expect(res.status).toBe(404);
  });

  it('When an instruction has an empty PIX key, then it answers 400 [VALIDATION-400]', async () => {
    const { api } = session();
    const created = (await api.post<Beneficiary>('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY' })).body;
    const res = await api.post(`/v1/beneficiaries/${created.id}/paymentInstructions`, {
      asset: 'BRL',
      address: { rail: 'PIX_KEY', dictKey: '' },
    });
    expect(res.status).toBe(400);
  });
});

describeWhen(['control', 'writes'], 'instruction review (control API)', () => {
  it(
    'When an instruction is approved, ' +
      'then the beneficiary shows it APPROVED; when rejected, a withdrawal to it is refused [BENEFICIARY-REVIEW]',
    async () => {
      const { api, control } = session();
      const created = (
        await api.post<Beneficiary>('/v1/beneficiaries', {
          entity: person,
          relationshipType: 'THIRD_PARTY',
          paymentInstructions: [pixInstruction()],
        })
      ).body;
      const instructionId = created.paymentInstructions[0]!.id;
      // The document: an instruction state without a status is CREATED.
      const statusOf = (b: Beneficiary) => b.paymentInstructions[0]!.currentState.status ?? 'CREATED';
      expectCreatedIn('paymentInstruction', statusOf(created));
      await control!.instruction(created.id, instructionId, 'approve');
      const approved = (await api.get<Beneficiary>(`/v1/beneficiaries/${created.id}`)).body;
      expect(statusOf(approved)).toBe('APPROVED');
      expectTransition('paymentInstruction', statusOf(created), statusOf(approved));

      const rejected = (
        await api.post<Beneficiary>('/v1/beneficiaries', {
          entity: person,
          relationshipType: 'THIRD_PARTY',
          paymentInstructions: [pixInstruction()],
        })
      ).body;
      await control!.instruction(rejected.id, rejected.paymentInstructions[0]!.id, 'reject', {
        code: 'DOCUMENT_REJECTED',
        message: 'Key owner does not match',
      });
      const read = (await api.get<Beneficiary>(`/v1/beneficiaries/${rejected.id}`)).body.paymentInstructions[0]!;
      expect(read.currentState).toMatchObject({ status: 'REJECTED', reason: { code: 'DOCUMENT_REJECTED' } });
      expectTransition('paymentInstruction', statusOf(rejected), read.currentState.status);
      const { funded } = await findAccounts(session());
      const q = (
        await api.post<Quote>('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      ).body;
      const res = await api.post('/v1/operations/withdrawals', {
        accountId: funded.id,
        quoteId: q.id,
        beneficiary: { mode: 'REFERENCE', id: rejected.id },
      });
      expect(res.status).toBe(400);
      expect((await api.get<Quote>(`/v1/quotes/${q.id}`)).body.status).toBe('OPEN');
    },
  );
});
