// The control API's presence, configuration and routing; the documents and the reference page.
import { describe, expect, it, afterAll, beforeAll } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { load as parse } from 'js-yaml';
import { assertHandlersMatchDocument } from '../../mock/http/route-table';
import { controlContract } from '../../mock/control/contract';
import { docsRouter } from '../../mock/control/docs';
import { controlHandlers } from '../../mock/control/handlers';
import { checkedAgainstPublic } from '../../mock/control/public-schemas';
import { CLOCK_START, contract, startMock, type Harness } from '../http/harness';
import { control } from './support';
import { FixtureSource } from '../../mock/services/fixtures';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

describe('presence and configuration', () => {
  it('GET /_mock/health answers ok with the mock clock, and an X-Request-Id', async () => {
    const res = await control(h).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', now: new Date(CLOCK_START).toISOString(), frozen: true });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /_mock/config shows the running configuration with the secret masked', async () => {
    const res = await control(h).get('/config').expect(200);
    expect(res.body).toMatchObject({ secret: '***', controlApi: true, autoSettleMs: null, strictResponses: true });
    expect(JSON.stringify(res.body)).not.toContain(h.mock.deps.config.secret);
  });

  it('when the control API is switched off, every /_mock path is 404 ROUTE_NOT_FOUND as if it did not exist', async () => {
    const off = await startMock({ config: { controlApi: false } });
    try {
      for (const path of ['/_mock/health', '/_mock/openapi.yaml', '/_mock/reset', '/_mock']) {
        const res = await off.http.get(path).expect(404);
        expect(res.body.code).toBe('ROUTE_NOT_FOUND');
      }
      expect((await off.http.post('/_mock/reset').expect(404)).body.code).toBe('ROUTE_NOT_FOUND');
      // The service API is unaffected.
      await off.http.post('/api/oauth/client/token').send({ clientId: 'demo-client', clientSecret: 'demo-secret' }).expect(200);
    } finally {
      await off.close();
    }
  });
});

describe('routing and validation', () => {
  it('an unknown /_mock path is 404 ROUTE_NOT_FOUND; a known one with the wrong method 405 with Allow', async () => {
    expect((await control(h).get('/nothing-here').expect(404)).body.code).toBe('ROUTE_NOT_FOUND');
    const res = await control(h).delete('/health').expect(405);
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET');
  });

  it('bodies are validated by the control document: an unknown field or a wrong type is 400 VALIDATION_ERROR naming it', async () => {
    const res = await control(h).post('/clock/advance', { by: '5m', extra: 1 }).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'body.extra' }] } });
    const fields = (await control(h).post('/faults', { path: 42, latencyMs: 5 }).expect(400)).body.details.fields;
    expect(fields.map((f: { field: string }) => f.field)).toEqual(['body.path']);
  });

  it('path parameters are validated too: a malformed id is 400, an unknown one 404 RESOURCE_NOT_FOUND', async () => {
    expect((await control(h).post('/operations/not-a-uuid/settle').expect(400)).body.code).toBe('VALIDATION_ERROR');
    expect((await control(h).post('/operations/7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d/settle').expect(404)).body.code).toBe(
      'RESOURCE_NOT_FOUND',
    );
  });

  it('the app refuses to start when the control handlers and the control document differ', () => {
    const m = h.mock;
    const table = controlHandlers({
      deps: m.deps,
      services: m.services,
      publicContract: m.contract,
      controlContract: controlContract(),
      fixtures: new FixtureSource(
        m.fixtures,
        undefined,
        () => [],
        () => undefined,
      ),
      faults: m.faults,
      journal: m.journal,
      logger: m.logger,
      cluster: m.cluster,
    });
    // GET /_mock/live is answered as a stream, mounted apart from the JSON handlers (router.ts).
    const streams = { streamChanges: () => undefined };
    expect(() => assertHandlersMatchDocument(controlContract(), { ...table, ...streams })).not.toThrow();
    expect(() => assertHandlersMatchDocument(controlContract(), table)).toThrow(/No handler for: streamChanges/);
    const { getHealth: _dropped, ...rest } = { ...table, ...streams };
    expect(() => assertHandlersMatchDocument(controlContract(), rest)).toThrow(/No handler for: getHealth/);
    expect(() => assertHandlersMatchDocument(controlContract(), { ...table, getSecrets: table.getHealth })).toThrow(
      /Not in the document: getSecrets/,
    );
  });
});

describe('strict answers', () => {
  it('an answer that should be a service resource but breaks the service document is 500 INTERNAL_ERROR naming the schema', async () => {
    const broken = checkedAgainstPublic(
      () => Promise.resolve({ status: 200, body: { id: 'not an operation' } }),
      'Operation',
      contract(),
      h.mock.logger,
    );
    await expect(broken({} as never)).rejects.toMatchObject({ code: 'INTERNAL_ERROR', details: { schema: 'Operation' } });
    const fine = checkedAgainstPublic(
      () => Promise.resolve({ status: 404, body: { code: 'RESOURCE_NOT_FOUND', message: 'x' } }),
      'Operation',
      contract(),
      h.mock.logger,
    );
    await expect(fine({} as never)).resolves.toMatchObject({ status: 404 });
  });
});

describe('documents and reference', () => {
  it('GET /openapi.yaml serves the service document as application/yaml', async () => {
    const res = await h.http
      .get('/openapi.yaml')
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString()));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/yaml/);
    expect(parse(res.body as string) as object).toEqual(h.mock.contract.document);
  });

  it('GET /_mock/openapi.yaml serves the control document', async () => {
    const res = await control(h)
      .get('/openapi.yaml')
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString()));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/yaml/);
    expect((parse(res.body as string) as { info: { title: string } }).info.title).toBe('fos-mock control API');
  });

  it('GET /docs without the renderer installed is 501 DOCS_UNAVAILABLE naming the package', async () => {
    const without = await startMock({ docsRenderer: null });
    try {
      const res = await without.http.get('/docs').expect(501);
      expect(res.body).toMatchObject({ code: 'DOCS_UNAVAILABLE', details: { package: expect.stringMatching(/^redoc@/) } });
      expect(res.headers['x-request-id']).toBeDefined();
    } finally {
      await without.close();
    }
  });

  it('GET /docs with the renderer serves a page that loads the bundle from the mock itself (no CDN)', async () => {
    const app = express().use(docsRouter({ controlApi: true, renderer: __filename }));
    const page = await request(app).get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('spec-url="/openapi.yaml"');
    expect(page.text).toContain('src="/docs/redoc.standalone.js"');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect((await request(app).get('/docs/control').expect(200)).text).toContain('spec-url="/_mock/openapi.yaml"');
    await request(app)
      .get('/docs/redoc.standalone.js')
      .expect(200)
      .expect('content-type', /javascript/);
  });
});
