// What the journal keeps of a large answer: a page of stored (frozen) records by reference, whatever
// its size; any other answer over JOURNAL_BODY_LIMIT as its JSON cut at the limit, whether it was
// written as text or as UTF-8 bytes (the response encoder's pages and records).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { exchangeOf, JOURNAL_BODY_LIMIT } from '../../mock/http/journal-exchange';

const req = { headers: { 'content-type': 'application/json' } } as unknown as IncomingMessage;
const res = { getHeaders: () => ({ 'content-type': 'application/json; charset=utf-8' }) } as unknown as ServerResponse;

describe('a large answer in the journal', () => {
  it('written as bytes and not a page of stored records, is kept as its first JOURNAL_BODY_LIMIT characters, cut', () => {
    const body = { blob: 'é'.repeat(JOURNAL_BODY_LIMIT) };
    const json = JSON.stringify(body);
    const { response } = exchangeOf(req, res, '/v1/x', { responseJson: Buffer.from(json), responseBody: body });
    expect(response).toMatchObject({ text: json.slice(0, JOURNAL_BODY_LIMIT), truncated: true });
    expect(response.body).toBeUndefined();
  });

  it('written as bytes over the limit but characters within it (accents take two bytes), is kept whole', () => {
    const body = { blob: 'é'.repeat(JOURNAL_BODY_LIMIT / 2 + 100) };
    const bytes = Buffer.from(JSON.stringify(body));
    expect(bytes.length).toBeGreaterThan(JOURNAL_BODY_LIMIT);
    const { response } = exchangeOf(req, res, '/v1/x', { responseJson: bytes, responseBody: body });
    expect(response).toMatchObject({ body, truncated: false });
  });

  it('written as text, is kept as its first JOURNAL_BODY_LIMIT characters, cut', () => {
    const json = JSON.stringify({ blob: 'x'.repeat(2 * JOURNAL_BODY_LIMIT) });
    const { response } = exchangeOf(req, res, '/v1/x', { responseJson: json, responseBody: JSON.parse(json) });
    expect(response).toMatchObject({ text: json.slice(0, JOURNAL_BODY_LIMIT), truncated: true });
  });

  it('that is a page of stored records, is kept as the page itself, not cut', () => {
    const record = Object.freeze({ id: 'r', note: 'y'.repeat(JOURNAL_BODY_LIMIT) });
    const page = { data: [record], meta: { total: 1 } };
    const { response } = exchangeOf(req, res, '/v1/x', { responseJson: Buffer.from(JSON.stringify(page)), responseBody: page });
    expect(response).toMatchObject({ body: page, truncated: false });
    expect(response.text).toBeUndefined();
  });

  it('within the limit, is kept as the value answered', () => {
    const body = { id: 'small' };
    const { response } = exchangeOf(req, res, '/v1/x', { responseJson: Buffer.from(JSON.stringify(body)), responseBody: body });
    expect(response).toMatchObject({ body, truncated: false });
  });
});
