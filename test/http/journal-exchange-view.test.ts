// How GET /_mock/journal/{requestId} shows an exchange: the answer's JSON parsed unless it was cut
// (a cut answer stays text, even one that still reads as JSON), text that is not JSON as text,
// headers lower-cased as strings or lists, no body key where there was no body, and credentials
// masked.
import { describe, expect, it } from '@jest/globals';
import { exchangeView, withoutSecrets, type JournalExchange } from '../../mock/http/journal-exchange';

const exchange = (response: Partial<JournalExchange['response']>, request: Partial<JournalExchange['request']> = {}): JournalExchange => ({
  request: { query: '', headers: {}, bodyTruncated: false, ...request },
  response: { headers: {}, truncated: false, ...response },
});

describe('the journal view of an exchange', () => {
  it('parses a whole JSON answer', () => {
    expect(exchangeView(exchange({ text: '{"a":[1]}' })).response.body).toEqual({ a: [1] });
  });

  it('keeps a cut answer as its text, even when the cut still reads as JSON', () => {
    expect(exchangeView(exchange({ text: '12345', truncated: true })).response).toStrictEqual({
      headers: {},
      body: '12345',
      bodyTruncated: true,
    });
  });

  it('shows an answer that is not JSON as its text', () => {
    expect(exchangeView(exchange({ text: 'not json' })).response.body).toBe('not json');
  });

  it('has no body key for a request or an answer without a body', () => {
    expect(exchangeView(exchange({}))).toStrictEqual({
      request: { query: '', headers: {}, bodyTruncated: false },
      response: { headers: {}, bodyTruncated: false },
    });
  });

  it('lower-cases header names, shows numbers as strings, keeps lists and leaves out headers without a value', () => {
    const view = exchangeView(
      exchange({ headers: { 'Content-Length': 12, 'set-cookie': ['a=1', 'b=2'], 'x-none': undefined } }, { headers: { Accept: '*/*' } }),
    );
    expect(view.response.headers).toStrictEqual({ 'content-length': '12', 'set-cookie': ['a=1', 'b=2'] });
    expect(view.request.headers).toStrictEqual({ accept: '*/*' });
  });
});

describe('an answer kept as the value its JSON was made from', () => {
  it('is shown as that JSON, parsed', () => {
    expect(exchangeView(exchange({ body: { data: [{ id: 'a' }], meta: { nextCursor: null } } })).response).toStrictEqual({
      headers: {},
      body: { data: [{ id: 'a' }], meta: { nextCursor: null } },
      bodyTruncated: false,
    });
  });

  it('is shown cut at 16,384 characters, as text, when its JSON is longer (a large page of stored records)', () => {
    const page = { data: Array.from({ length: 400 }, (_, i) => Object.freeze({ id: `record-${i}`, note: 'x'.repeat(40) })) };
    const view = exchangeView(exchange({ body: page }));
    expect(view.response).toStrictEqual({ headers: {}, body: JSON.stringify(page).slice(0, 16_384), bodyTruncated: true });
  });
});

describe('an exchange as it leaves the journal', () => {
  it('masks credentials: the Authorization header keeps its scheme, secret fields at any depth read ***', () => {
    const kept = exchange(
      { text: '{"accessToken":"eyJ.x.y","tokenType":"Bearer","clients":[{"clientSecret":"s3cr\\"et"}]}' },
      { headers: { authorization: 'Bearer eyJ.x.y', 'x-other': 'kept' }, body: { clientId: 'demo', nested: [{ signingSecret: 'whsec' }] } },
    );
    const shown = withoutSecrets(kept);
    expect(shown.request.headers).toEqual({ authorization: 'Bearer ***', 'x-other': 'kept' });
    expect(shown.request.body).toEqual({ clientId: 'demo', nested: [{ signingSecret: '***' }] });
    expect(JSON.parse(shown.response.text!)).toEqual({ accessToken: '***', tokenType: 'Bearer', clients: [{ clientSecret: '***' }] });
    // What is kept is not changed: masking makes a copy.
    expect(kept.request.headers.authorization).toBe('Bearer eyJ.x.y');
  });

  it('masks the secret fields of an answer kept as its value', () => {
    const shown = withoutSecrets(exchange({ body: { accessToken: 'eyJ.x.y', tokenType: 'Bearer', expiresIn: 82800 } }));
    expect(shown.response.body).toEqual({ accessToken: '***', tokenType: 'Bearer', expiresIn: 82800 });
  });

  it('masks a secret whose value the 16 KiB cut ends in the middle of', () => {
    const shown = withoutSecrets(exchange({ text: '{"records":[{"clientId":"demo","clientSecret":"demo-sec', truncated: true }));
    expect(shown.response.text).toBe('{"records":[{"clientId":"demo","clientSecret":"***"');
  });
});
