// `matches` in POST /_mock/journal/verify and /_mock/deliveries/verify is RE2, matched in time
// linear in the text: the classic catastrophic patterns of a backtracking engine answer at once
// over thousands of characters (a backtracking engine would not finish them in years), and what
// RE2 cannot match that way (backreferences, lookaround) is a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { startMock, type Harness } from '../http/harness';
import { control } from '../control/support';
import { depositFor, newCustomer, type TestCustomer } from './support';

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  h = await startMock();
  receiver = await startReceiver();
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

const LONG = 5_000;

/** Each classic pattern with a long text it does not match, every backtracking path tried before failing. */
const CATASTROPHIC: Array<[pattern: string, text: string]> = [
  ['^(a+)+$', `${'a'.repeat(LONG)}!`],
  ['(a|aa)+$', `${'a'.repeat(LONG)}!`],
  ['(a|a)*b', 'a'.repeat(LONG)],
  ['^(\\w+\\s?)*$', `${'a'.repeat(LONG)}!`],
  ['(x+x+)+y', 'x'.repeat(LONG)],
];

/** A quote whose `sourceAsset` is `text`: refused (400) and journaled with its body, like any request. */
async function quoteNamed(customer: TestCustomer, text: string) {
  await customer.api
    .post('/v1/quotes', { accountId: customer.accounts[0], sourceAsset: text, targetAsset: 'BRL', sourceAmount: '1.00' })
    .expect(400);
}

const verifyRequests = (customer: TestCustomer, matches: string) =>
  control(h)
    .post('/journal/verify', {
      request: { method: 'POST', path: '/v1/quotes', customerId: customer.customerId, body: [{ path: '$.sourceAsset', matches }] },
      count: { atLeast: 1 },
    })
    .expect(200);

describe('a catastrophic pattern in a journal verification', () => {
  it.each(CATASTROPHIC)('%s over 5,000 characters it does not match finds no request, at once', async (pattern, text) => {
    const customer = await newCustomer(h);
    await quoteNamed(customer, text);
    const result = (await verifyRequests(customer, pattern)).body;
    expect(result).toMatchObject({ ok: false, count: 0, searched: 1 });
    expect(result.nearMisses[0].differences).toEqual([{ field: 'body.$.sourceAsset', expected: `matches /${pattern}/`, actual: text }]);
  });

  it('^(a+)+$ still finds the request of 5,000 a’s, and not the one with a ! after them', async () => {
    const customer = await newCustomer(h);
    await quoteNamed(customer, 'a'.repeat(LONG));
    await quoteNamed(customer, `${'a'.repeat(LONG)}!`);
    expect((await verifyRequests(customer, '^(a+)+$')).body).toMatchObject({ ok: true, count: 1, searched: 2 });
  });

  it('an inline flag works: (?i)^BRL$ finds a quote of brl', async () => {
    const customer = await newCustomer(h);
    await quoteNamed(customer, 'brl');
    expect((await verifyRequests(customer, '(?i)^BRL$')).body).toMatchObject({ ok: true, count: 1 });
  });
});

describe('a catastrophic pattern in a delivery verification', () => {
  it('^(.+)+!$ over a delivered payload (hundreds of characters, no ! at the end) finds no message, at once', async () => {
    const customer = await newCustomer(h);
    const endpoint = receiver.endpoint({ fallback: () => 200 });
    await customer.api.post('/api/subscriptions', { url: endpoint.url, includeAll: true }).expect(201);
    await depositFor(customer, '10.00');
    await control(h).post('/webhooks/idle').expect(200);
    const verify = (matches: string) =>
      control(h)
        .post('/deliveries/verify', {
          delivery: { customerId: customer.customerId, eventType: 'OPERATION_REQUESTED', payload: [{ path: '$', matches }] },
        })
        .expect(200);
    const result = (await verify('^(.+)+!$')).body;
    expect(result).toMatchObject({ ok: false, count: 0, searched: 1 });
    expect(JSON.stringify(result.nearMisses[0].differences[0].actual).length).toBeGreaterThan(200);
    expect((await verify('^(.+)+\\}$')).body).toMatchObject({ ok: true, count: 1 });
  });
});

describe('what RE2 cannot match in linear time is refused', () => {
  it.each([
    ['(a)\\1', 'a backreference', 'invalid escape sequence'],
    ['(?=a)', 'a lookahead', 'unsupported Perl syntax'],
    ['(?<!a)b', 'a lookbehind', 'not an RE2 regular expression'],
    ['[a-z]{999}', 'a program over 1,000 instructions', 'too large'],
  ])('%s (%s) is a 400 naming the field, with the reason', async (matches, _what, reason) => {
    const res = await control(h)
      .post('/journal/verify', { request: { body: [{ path: '$.sourceAsset', matches }] } })
      .expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields).toEqual([{ field: 'body.request.body[0].matches', message: expect.stringContaining(reason) }]);
  });

  it('in a header or a delivery’s payload too', async () => {
    const header = await control(h)
      .post('/journal/verify', { request: { headers: [{ name: 'x', matches: '(a)\\1' }] } })
      .expect(400);
    expect(header.body.details.fields[0].field).toBe('body.request.headers[0].matches');
    const payload = await control(h)
      .post('/deliveries/verify', { delivery: { payload: [{ path: '$', matches: '(?=a)' }] } })
      .expect(400);
    expect(payload.body.details.fields[0].field).toBe('body.delivery.payload[0].matches');
  });
});
