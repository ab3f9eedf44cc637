// The journal keeps no credentials: what GET /_mock/journal/{requestId} (and so the inspector and
// its "copy as curl") shows of a request has its bearer token, client secret, access token and
// signing secret masked (***); a token keeps its last four characters to tell it apart.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from '../http/harness';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

async function kept(requestId: string) {
  return (await h.http.get(`/_mock/journal/${requestId}`).expect(200)).body as {
    request: { headers: Record<string, string>; body?: Record<string, unknown> };
    response: { body?: Record<string, unknown> };
  };
}

describe('what the journal keeps of a request', () => {
  it('a failed token call shows its client secret as ***', async () => {
    const res = await h.http
      .post('/api/oauth/client/token')
      .send({ clientId: 'demo-client', clientSecret: 'not-the-secret-1234' })
      .expect(401);
    const exchange = await kept(res.headers['x-request-id'] as string);
    expect(exchange.request.body).toEqual({ clientId: 'demo-client', clientSecret: '***' });
    expect(JSON.stringify(exchange)).not.toContain('not-the-secret');
  });

  it("a token call's answer keeps the access token as a placeholder with its last four characters", async () => {
    const res = await h.http.post('/api/oauth/client/token').send({ clientId: 'demo-client', clientSecret: 'demo-secret' }).expect(200);
    const token = res.body.accessToken as string;
    const exchange = await kept(res.headers['x-request-id'] as string);
    expect(exchange.response.body?.accessToken).toBe(`***${token.slice(-4)}`);
    expect(exchange.request.body?.clientSecret).toBe('***');
    expect(JSON.stringify(exchange)).not.toContain(token);
    expect(JSON.stringify(exchange)).not.toContain('demo-secret');
  });

  it("a request's bearer token is shown as Bearer ***wxyz (copied as curl as $TOKEN: the inspector's test)", async () => {
    const token = await h.token();
    const res = await h.http.get('/api/accounts?limit=1').set('Authorization', `Bearer ${token}`).expect(200);
    const exchange = await kept(res.headers['x-request-id'] as string);
    expect(exchange.request.headers.authorization).toBe(`Bearer ***${token.slice(-4)}`);
    expect(JSON.stringify(exchange)).not.toContain(token);
  });
});
