// A refusal that failed validation says which fields and why, wherever a user meets it: a
// scenario step that expected success, and a ControlError of the typed control client.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type RunningMock } from '../../mock/package';
import { runScenario } from '../../mock/scenarios';
import { listeningMock, type ListeningMock } from './support';

let target: ListeningMock;
let running: RunningMock;
beforeAll(async () => {
  target = await listeningMock();
  running = await startMock();
});
afterAll(async () => {
  await target.stop();
  await running.close();
});

describe('a refusal that failed validation', () => {
  it('When a scenario step sends a number where the document wants a string, then the failure names the field and the rule', async () => {
    const result = await runScenario(
      {
        name: 'amount as a number',
        steps: [
          {
            call: 'POST /v1/quotes',
            body: { accountId: '{{accounts.funded}}', sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: 10 },
            expect: { status: 201 },
          },
        ],
      },
      { baseUrl: target.url },
    );
    expect(result.passed).toBe(false);
    expect(result.steps[0]?.error).toBe(
      'status: expected 201, got 400 VALIDATION_ERROR: The request does not match the API document.\n  body.sourceAmount: must be string',
    );
  });

  it('When a control call is refused, then the ControlError message shows the fields, not only the code', async () => {
    const refusal = (await running.control.advanceClock('soon').catch((error: unknown) => error)) as Error;
    expect(refusal.name).toBe('ControlError');
    expect(refusal.message).toMatch(
      /^fos-mock control advanceClock answered 400 VALIDATION_ERROR: The request does not match the API document\.\n {2}body\.by: \S/,
    );
  });
});
