// How GET /_mock/journal/{requestId} shows an exchange: the answer's JSON parsed unless it was cut
// (a cut answer stays text, even one that still reads as JSON), text that is not JSON as text,
// headers lower-cased as strings or lists, and no body key where there was no body.
import { describe, expect, it } from '@jest/globals';
import { exchangeView, type JournalExchange } from '../../mock/http/journal-exchange';

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
