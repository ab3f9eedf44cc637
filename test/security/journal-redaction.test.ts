// The journal keeps no credentials: what GET /_mock/journal/{requestId} (and so the inspector and
// its "copy as curl") shows of a request has its bearer token, client secret, access token and
// signing secret as placeholders; a token keeps its last four characters to tell it apart.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { redactBody, redactHeaders } from '../../mock/http/redact';
import { startMock, type Harness } from '../http/harness';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
  // Exchanges kept as they are while an inspector page is open.
  h.mock.journal.watched = () => true;
});
afterAll(() => h?.close());

async function kept(requestId: string) {
  return (await h.http.get(`/_mock/journal/${requestId}`).expect(200)).body as {
    request: { headers: Record<string, string>; body?: Record<string, unknown> };
    response: { body?: Record<string, unknown> };
  };
}

describe('what the journal keeps of a request', () => {
  it('a failed token call keeps its client secret as <redacted>', async () => {
    const res = await h.http
      .post('/api/oauth/client/token')
      .send({ clientId: 'demo-client', clientSecret: 'not-the-secret-1234' })
      .expect(401);
    const exchange = await kept(res.headers['x-request-id'] as string);
    expect(exchange.request.body).toEqual({ clientId: 'demo-client', clientSecret: '<redacted>' });
    expect(JSON.stringify(exchange)).not.toContain('not-the-secret');
  });

  it("a token call's answer keeps the access token as a placeholder with its last four characters", async () => {
    const res = await h.http.post('/api/oauth/client/token').send({ clientId: 'demo-client', clientSecret: 'demo-secret' }).expect(200);
    const token = res.body.accessToken as string;
    const exchange = await kept(res.headers['x-request-id'] as string);
    expect(exchange.response.body?.accessToken).toBe(`<redacted …${token.slice(-4)}>`);
    expect(exchange.request.body?.clientSecret).toBe('<redacted>');
    expect(JSON.stringify(exchange)).not.toContain(token);
    expect(JSON.stringify(exchange)).not.toContain('demo-secret');
  });

  it("a request's bearer token is kept as Bearer <redacted …wxyz> (copied as curl as $TOKEN: the inspector's test)", async () => {
    const token = await h.token();
    const res = await h.http.get('/api/accounts?limit=1').set('Authorization', `Bearer ${token}`).expect(200);
    const exchange = await kept(res.headers['x-request-id'] as string);
    expect(exchange.request.headers.authorization).toBe(`Bearer <redacted …${token.slice(-4)}>`);
    expect(JSON.stringify(exchange)).not.toContain(token);
  });

  it('a subscription answered with its signing secret keeps it as <redacted>', () => {
    const answer = { id: 's1', url: 'https://example.test/hooks', signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
    expect(redactBody({ data: [answer] })).toEqual({ data: [{ ...answer, signingSecret: '<redacted>' }] });
  });

  it('a request without credentials is kept as it came (the same objects, no copy)', () => {
    const headers = { accept: 'application/json' };
    const body = { accountId: 'a', sourceAmount: '1.00' };
    expect(redactHeaders(headers)).toBe(headers);
    expect(redactBody(body)).toBe(body);
  });
});
