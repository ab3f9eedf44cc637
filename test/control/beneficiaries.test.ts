// Payment-instruction actions of the control API, and their BENEFICIARY_INSTRUCTION_* events.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Authed, Harness } from '../http/harness';
import type { Receiver } from '../../mock/receiver/receiver';
import { useSubscribedMock } from '../http/subscribed-mock';
import { control } from './support';
import { person } from '../support/people';

let h: Harness;
let api: Authed;
let receiver: Receiver;

const instruction = (dictKey: string) => ({ asset: 'BRL', address: { rail: 'PIX_KEY', dictKey } });

const env = useSubscribedMock({
  resources: [
    {
      name: 'BENEFICIARY',
      events: ['BENEFICIARY_INSTRUCTION_APPROVED', 'BENEFICIARY_INSTRUCTION_REJECTED', 'BENEFICIARY_INSTRUCTION_ACTION_REQUIRED'],
    },
  ],
});
beforeAll(() => {
  ({ h, api, receiver } = env);
});

async function newBeneficiary(dictKey = 'maria@example.com') {
  const b = (
    await api
      .post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY', paymentInstructions: [instruction(dictKey)] })
      .expect(201)
  ).body;
  return { id: b.id as string, instructionId: b.paymentInstructions[0].id as string };
}
const path = (b: { id: string; instructionId: string }, action: string) =>
  `/beneficiaries/${b.id}/payment-instructions/${b.instructionId}/${action}`;
const events = () => receiver.received.map((r) => [r.headers['x-event-type'], JSON.parse(r.body).instruction.currentState.status]);

describe('payment instructions', () => {
  it('approving an instruction fires BENEFICIARY_INSTRUCTION_APPROVED and shows it APPROVED', async () => {
    const b = await newBeneficiary();
    const res = await control(h).post(path(b, 'approve')).expect(200);
    expect(res.body.paymentInstructions[0].currentState.status).toBe('APPROVED');
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual([['BENEFICIARY_INSTRUCTION_APPROVED', 'APPROVED']]);
  });

  it('asking for action, then rejecting, fires _ACTION_REQUIRED then _REJECTED with the reasons', async () => {
    const b = await newBeneficiary();
    const unsigned = { code: 'DOCUMENT_REJECTED', message: 'The custody attestation is unsigned.' };
    const flagged = await control(h).post(path(b, 'require-action'), { reason: unsigned }).expect(200);
    expect(flagged.body.paymentInstructions[0].currentState).toMatchObject({ status: 'ACTION_REQUIRED', reason: unsigned });
    await control(h)
      .post(path(b, 'reject'), { reason: { code: 'BENEFICIARY_REJECTED', message: 'Wrong owner.' } })
      .expect(200);
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual([
      ['BENEFICIARY_INSTRUCTION_ACTION_REQUIRED', 'ACTION_REQUIRED'],
      ['BENEFICIARY_INSTRUCTION_REJECTED', 'REJECTED'],
    ]);
    expect((await control(h).post(path(b, 'approve')).expect(409)).body.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('rejecting needs a reason; an unknown beneficiary or instruction is 404', async () => {
    const b = await newBeneficiary();
    await control(h).post(path(b, 'reject')).expect(400);
    await control(h)
      .post(path({ id: randomUUID(), instructionId: b.instructionId }, 'approve'))
      .expect(404);
    await control(h)
      .post(path({ id: b.id, instructionId: randomUUID() }, 'approve'))
      .expect(404);
  });
});
