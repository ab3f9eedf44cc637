// Request bodies and the errors of reading them, over HTTP: what is JSON, the size limit, a charset
// or Content-Encoding the mock cannot read, a body that does not decode, a malformed path escape,
// and the Error body of the 404 and 405 a request matching no operation gets.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest, createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { startMock, type Authed, type Harness } from './harness';

let h: Harness;
let api: Authed;
let server: Server;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
  server = createServer(h.mock.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
// Guarded: when the beforeAll failed, that failure is the one to report, not a crash here.
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await h?.close();
});

/** A raw POST, so that no client library adds a Content-Type of its own. */
async function rawPost(path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = httpRequest(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
      { method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A request line sent as it is (no client library rewrites its target); the status and the Error body. */
async function rawLine(line: string, headers: string[] = []) {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () =>
      socket.write([line, 'Host: mock.test', 'Connection: close', ...headers, '', ''].join('\r\n')),
    );
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as unknown };
}

const VALIDATION = 'The request does not match the API document.';
const MEDIA = 'The request body must be application/json.';
const quote = (type: string, body: string) => api.post('/v1/quotes').set('Content-Type', type).send(body);
/** A quote request that reached the document's checks: its body was read as JSON. */
const missingFields = (res: { status: number; body: { code: string; details: { fields: Array<{ field: string }> } } }) => {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('VALIDATION_ERROR');
  return res.body.details.fields.map((f) => f.field);
};

describe('which bodies are JSON', () => {
  it('application/json in any case, with parameters and spaces, and any application/<name>+json are read as JSON', async () => {
    for (const type of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/json ; charset=utf-8',
      'application/problem+json',
      'application/vnd.fos.quote-v1+json',
    ]) {
      expect([type, missingFields(await quote(type, '{}'))]).toEqual([
        type,
        ['body.sourceAmount', 'body.targetAmount', 'body.accountId', 'body.sourceAsset', 'body.targetAsset'],
      ]);
    }
  });

  it('any other type is 415 UNSUPPORTED_MEDIA_TYPE naming the Content-Type sent', async () => {
    for (const type of [
      'text/plain',
      'xapplication/quote+json',
      'application/quote+jsonp',
      'application/+json',
      'application/json-seq',
      'application/q uote+json',
    ]) {
      const res = await quote(type, '{}');
      expect([type, res.status, res.body]).toEqual([
        type,
        415,
        { code: 'UNSUPPORTED_MEDIA_TYPE', message: MEDIA, details: { contentType: type } },
      ]);
    }
  });

  it('a body sent with no Content-Type is 415 with contentType null', async () => {
    const res = await rawPost('/v1/quotes', { authorization: `Bearer ${await h.token()}`, 'x-idempotency-key': randomUUID() }, '{}');
    expect(res).toEqual({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: MEDIA, details: { contentType: null } } });
  });

  it('a JSON scalar is well-formed JSON: it is judged by the document ("must be object"), not refused as malformed', async () => {
    const res = await quote('application/json', '42');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({ fields: [{ field: 'body', message: 'must be object' }] });
  });
});

describe('bodies the mock cannot read', () => {
  it('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE naming the limit; one of 200 KiB is read', async () => {
    const over = await quote('application/json', JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is larger than the limit.',
      details: { limitBytes: 1024 * 1024 },
    });
    const under = await quote('application/json', JSON.stringify({ pad: 'x'.repeat(200 * 1024) }));
    expect(missingFields(under)).toContain('body.pad');
  });

  it('a charset other than UTF-8 is 415 with the reason', async () => {
    const res = await quote('application/json; charset=latin1', '{}');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message: MEDIA, details: { reason: 'unsupported charset "LATIN1"' } });
  });

  it('a Content-Encoding the mock cannot decompress is 415 with the reason', async () => {
    const res = await quote('application/json', '{}').set('Content-Encoding', 'compress');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: MEDIA,
      details: { reason: 'unsupported content encoding "compress"' },
    });
  });

  it('a body that does not decode under its Content-Encoding is 400 VALIDATION_ERROR on the body, not a 500', async () => {
    const res = await quote('application/json', 'not gzip at all').set('Content-Encoding', 'gzip');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: VALIDATION,
      details: { fields: [{ field: 'body', message: 'could not be read or decoded' }] },
    });
  });
});

describe('paths and methods', () => {
  it('a path parameter with a malformed percent-escape is 400 on the path, on the service and the control API alike', async () => {
    for (const res of [await api.get('/api/accounts/%E0%A4%A'), await h.http.get('/_mock/journal/%E0%A4%A')]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: VALIDATION,
        details: { fields: [{ field: 'path', message: 'is not a valid percent-encoded path' }] },
      });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    }
  });

  it('an unknown path is 404 ROUTE_NOT_FOUND naming the method and path', async () => {
    const res = await h.http.post('/v1/nothing-here').expect(404);
    expect(res.body).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: 'No such endpoint.',
      details: { method: 'POST', path: '/v1/nothing-here' },
    });
  });

  it('GET /v1/accounts (the list is under /api) is 404 with the path the user probably meant in details', async () => {
    const res = await h.http.get('/v1/accounts').expect(404);
    expect(res.body).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: 'No such endpoint. Did you mean GET /api/accounts?',
      details: { method: 'GET', path: '/v1/accounts', suggestedPath: '/api/accounts' },
    });
  });

  it('POST /v1/subscriptions (made under /api, listed under /v1) is 405 naming POST /api/subscriptions', async () => {
    const res = await h.http.post('/v1/subscriptions').expect(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.body).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: 'The endpoint does not support this method. Did you mean POST /api/subscriptions?',
      details: { method: 'POST', allowed: ['GET'], suggestedPath: '/api/subscriptions' },
    });
  });

  it('a known path with another method is 405 with every allowed method, in Allow and in the details', async () => {
    const res = await h.http.put('/v1/subscriptions/3f1c2a4e-8b7d-4c59-9e21-6a0d5b7c8e90').expect(405);
    expect(res.headers.allow).toBe('GET, PATCH, DELETE');
    expect(res.body).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: 'The endpoint does not support this method.',
      details: { method: 'PUT', allowed: ['GET', 'PATCH', 'DELETE'] },
    });
  });
});

describe('request targets', () => {
  it('an absolute-form target (http://host/path?query) is served as its path and query, like the origin form', async () => {
    const auth = `Authorization: Bearer ${await h.token()}`;
    const absolute = await rawLine('GET http://mock.test/api/accounts?limit=1 HTTP/1.1', [auth]);
    const origin = await rawLine('GET /api/accounts?limit=1 HTTP/1.1', [auth]);
    expect(absolute.status).toBe(200);
    expect(absolute.body).toEqual(origin.body);
    expect((absolute.body as { data: unknown[] }).data).toHaveLength(1);
    const unauthorised = await rawLine('GET http://mock.test/api/accounts HTTP/1.1');
    expect(unauthorised).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('the asterisk target matches no operation: 404 ROUTE_NOT_FOUND', async () => {
    expect(await rawLine('OPTIONS * HTTP/1.1')).toEqual({
      status: 404,
      body: { code: 'ROUTE_NOT_FOUND', message: 'No such endpoint.', details: { method: 'OPTIONS', path: '*' } },
    });
  });
});

describe('X-Service-Version, repeated', () => {
  it('a repeated header is one value "1, 1", which is not a version: 400 UNSUPPORTED_VERSION', async () => {
    const res = await api
      .get('/api/accounts')
      .set('X-Service-Version', ['1', '1'] as unknown as string)
      .expect(400);
    expect(res.body).toEqual({
      code: 'UNSUPPORTED_VERSION',
      message: 'The X-Service-Version requested is not served.',
      details: { requested: '1, 1', supported: ['1'] },
    });
  });
});
