// The control API and the inspector answer only the machine they are meant for: a Host that is
// not a loopback name, the mock's own address or one of ALLOWED_HOSTS is 403 HOST_NOT_ALLOWED (a
// DNS-rebinding page cannot read the state), and a change posted from another site is 403
// CROSS_SITE_REQUEST (a page the developer visits cannot reset the mock). The service API, which
// has its tokens, is not concerned.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from '../http/harness';

const UUID = /^[0-9a-f-]{36}$/;

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

describe('a request to the control API naming another host (DNS rebinding)', () => {
  it('is 403 HOST_NOT_ALLOWED with the Error body and an X-Request-Id, and shows nothing of the state', async () => {
    const res = await h.http.get('/_mock/snapshot').set('Host', 'attacker.example').expect(403);
    expect(res.body).toMatchObject({ code: 'HOST_NOT_ALLOWED', details: { host: 'attacker.example', setting: 'ALLOWED_HOSTS' } });
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(JSON.stringify(res.body)).not.toContain('clientSecret');
  });

  it('is refused for the inspector page too', async () => {
    expect((await h.http.get('/_mock/inspector').set('Host', 'attacker.example:4010').expect(403)).body.code).toBe('HOST_NOT_ALLOWED');
  });

  it('is answered when the host is a loopback one, with or without a port', async () => {
    for (const host of ['127.0.0.1:4010', 'localhost', '[::1]:4010']) await h.http.get('/_mock/health').set('Host', host).expect(200);
  });

  it('leaves the service API and /_mockery to their own rules', async () => {
    const api = await h.as();
    await api.get('/api/accounts?limit=1').expect(200);
    await h.http
      .get('/api/accounts?limit=1')
      .set('Host', 'attacker.example')
      .set('Authorization', `Bearer ${await h.token()}`)
      .expect(200);
    expect((await h.http.get('/_mockery').set('Host', 'attacker.example').expect(404)).body.code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('a change posted to the control API from another site (CSRF)', () => {
  it('a form posted from another origin is 403 CROSS_SITE_REQUEST and changes nothing', async () => {
    await h.http.post('/_mock/faults').send({ path: '/v1/reference/resources', latencyMs: 1 }).expect(201);
    const res = await h.http
      .post('/_mock/reset')
      .set('Origin', 'http://evil.example')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('a=1')
      .expect(403);
    expect(res.body).toMatchObject({ code: 'CROSS_SITE_REQUEST', details: { origin: 'http://evil.example' } });
    expect((await h.http.get('/_mock/faults').expect(200)).body.data).toHaveLength(1);
    await h.http.delete('/_mock/faults').expect(204);
  });

  it('without an Origin, Sec-Fetch-Site: cross-site is refused the same way', async () => {
    expect((await h.http.post('/_mock/clock/freeze').set('Sec-Fetch-Site', 'cross-site').expect(403)).body.code).toBe('CROSS_SITE_REQUEST');
  });

  it('from the inspector (its own loopback origin), a change is made; a read from any origin is answered', async () => {
    await h.http.post('/_mock/clock/unfreeze').set('Origin', 'http://127.0.0.1:4010').set('Sec-Fetch-Site', 'same-origin').expect(200);
    await h.http.get('/_mock/health').set('Origin', 'http://evil.example').expect(200);
  });
});

describe('ALLOWED_HOSTS', () => {
  let shared: Harness;
  beforeAll(async () => {
    shared = await startMock({ config: { host: '0.0.0.0', allowedHosts: ['mock', 'qa.internal'] } });
  });
  afterAll(() => shared?.close());

  it('opens the control API to the names it lists (a container reached by its service name), and to no other', async () => {
    await shared.http.get('/_mock/health').set('Host', 'mock:4010').expect(200);
    await shared.http.post('/_mock/clock/freeze').set('Host', 'qa.internal').set('Origin', 'http://qa.internal:8080').expect(200);
    expect((await shared.http.get('/_mock/health').set('Host', 'other:4010').expect(403)).body.code).toBe('HOST_NOT_ALLOWED');
  });

  it('* opens it to every host', async () => {
    const open = await startMock({ config: { allowedHosts: ['*'] } });
    try {
      await open.http.get('/_mock/health').set('Host', 'anything.example').expect(200);
    } finally {
      await open.close();
    }
  });
});
