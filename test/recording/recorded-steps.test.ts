// How recorded exchanges become scenario steps: control paths, requests without a token, ids no
// answer showed, and fields named like secrets.
import { describe, expect, it } from '@jest/globals';
import type { Exchange } from '../../mock/cli/record-proxy';
import { scenarioFrom } from '../../mock/cli/record-scenario';
import { checkScenario } from '../../mock/scenarios';

const ACCOUNT = '5b1f23fb-f7c8-40e4-bd95-226207298952';

function exchange(method: string, path: string, status: number, request?: unknown, response?: unknown, headers = {}): Exchange {
  return {
    started: new Date(0),
    ms: 1,
    method,
    path,
    requestHeaders: { authorization: 'Bearer t0ken-value', ...headers },
    requestBody: request === undefined ? '' : JSON.stringify(request),
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: response === undefined ? '' : JSON.stringify(response),
  };
}

describe('a recorded session as scenario steps', () => {
  it('When the client used an id no answer showed and no token call was recorded, then both are said and the file is valid', () => {
    const { scenario, notes } = scenarioFrom(
      [
        exchange('GET', `/api/accounts/${ACCOUNT}`, 200, undefined, { id: ACCOUNT }),
        exchange('POST', '/_mock/operations/x/settle', 200),
        exchange('GET', '/api/accounts', 401, undefined, { code: 'UNAUTHORIZED' }, { authorization: '' }),
      ],
      { name: 'a session', customer: 'recorded' },
    );
    expect(scenario.customer).toBe('demo');
    expect(scenario.steps).toEqual([
      { call: `GET /api/accounts/${ACCOUNT}`, expect: { status: 200 } },
      { control: 'POST /operations/x/settle', expect: { status: 200 } },
      { call: 'GET /api/accounts', auth: false, expect: { status: 401 } },
    ]);
    expect(notes).toEqual([
      expect.stringContaining('no token call was recorded: the scenario logs in as demo-client'),
      expect.stringContaining(`1 id was sent but shown by no earlier answer (e.g. ${ACCOUNT})`),
    ]);
    expect(() => checkScenario(scenario)).not.toThrow();
  });

  it("When a request body holds a field named like a secret, then the step's body holds the marker", () => {
    const { scenario } = scenarioFrom([exchange('POST', '/api/subscriptions', 201, { url: 'https://x.example', secret: 'hunter22' })], {
      name: 'a session',
      customer: 'fresh',
    });
    expect(scenario.steps[0]?.body).toEqual({ url: 'https://x.example', secret: '[redacted]' });
  });

  it('When a cursor an answer gave is sent back in a query, then it is saved and written as its name', () => {
    const { scenario } = scenarioFrom(
      [
        exchange('GET', '/v1/beneficiaries?limit=1', 200, undefined, {
          data: [{ id: 'b-000000001' }],
          meta: { nextCursor: 'abc.def-123' },
        }),
        exchange('GET', '/v1/beneficiaries?limit=1&cursor=abc.def-123', 200, undefined, { data: [] }),
      ],
      { name: 'pages', customer: 'demo' },
    );
    expect(scenario.steps[0]?.save).toEqual({ nextCursor: 'body.meta.nextCursor' });
    expect(scenario.steps[1]?.call).toBe('GET /v1/beneficiaries?limit=1&cursor={{nextCursor}}');
  });
});
