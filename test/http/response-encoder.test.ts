// The response encoder: the bytes are JSON.stringify's, every answer is checked against the
// document in strict mode, and an unchanged (frozen, stored) item is checked and serialised once.
import { describe, expect, it } from '@jest/globals';
import { ResponseEncoder } from '../../mock/http/response-encoder';
import { MemoryStore } from '../../mock/store';
import { contract, countingItemCheck, demoFixtures } from './harness';

const REQUEST_ID = { 'x-request-id': '5f0c6f4e-8a9b-4c1d-9e2f-3a4b5c6d7e8f' };
const listAccounts = () => contract().byId.get('listAccounts')!;

function accountsPage() {
  const accounts = demoFixtures()
    .accounts.slice(0, 3)
    .map((a) => Object.freeze(structuredClone(a)));
  return { data: accounts, meta: { previousCursor: null, nextCursor: 'abc.def', total: accounts.length } };
}

/** The operation with its item check counted. */
const counting = countingItemCheck;

describe('the response encoder', () => {
  it('writes exactly what JSON.stringify writes, for pages and other bodies', () => {
    const encoder = new ResponseEncoder();
    const page = accountsPage();
    expect(encoder.serialise(page).toString()).toBe(JSON.stringify(page));
    expect(encoder.serialise(page).toString()).toBe(JSON.stringify(page));
    expect(encoder.serialise({ data: [], meta: { total: 0 } }).toString()).toBe(JSON.stringify({ data: [], meta: { total: 0 } }));
    expect(encoder.serialise({ data: [1, 'two', null] }).toString()).toBe('{"data":[1,"two",null]}');
    expect(encoder.serialise({ code: 'X', details: { a: [1] } }).toString()).toBe('{"code":"X","details":{"a":[1]}}');
  });

  it('accepts a page that follows the document, checking each unchanged item only once', () => {
    const encoder = new ResponseEncoder();
    const { op, calls } = counting(listAccounts());
    const page = accountsPage();
    expect(encoder.encode(op, 200, REQUEST_ID, page, true).violations).toEqual([]);
    expect(encoder.encode(op, 200, REQUEST_ID, { ...page, meta: { ...page.meta, nextCursor: null } }, true).violations).toEqual([]);
    expect(calls()).toBe(3);
  });

  it('checks a stored record once while it is unchanged, however many records are stored beside it, and afresh once changed', async () => {
    const encoder = new ResponseEncoder();
    const { op, calls } = counting(listAccounts());
    const store = new MemoryStore();
    const accounts = demoFixtures().accounts.slice(0, 3);
    for (const account of accounts) await store.insert('account', 'customer-a', account.id, account as never);
    const page = async () => {
      const data = (await store.page('account', { scope: 'customer-a', limit: 3, order: 'ASCENDING' })).items.map((i) => i.record);
      return { data, meta: { previousCursor: null, nextCursor: null, total: data.length } };
    };
    const first = await page();
    expect(encoder.encode(op, 200, REQUEST_ID, first, true).violations).toEqual([]);
    for (let i = 0; i < 5000; i++)
      await store.insert('account', 'customer-b', `filler-${i}`, { ...accounts[0]!, id: `filler-${i}` } as never);
    const again = await page();
    expect(encoder.encode(op, 200, REQUEST_ID, again, true).violations).toEqual([]);
    expect(calls()).toBe(3);
    // A changed record is checked afresh.
    await store.update('account', accounts[1]!.id, (current) => ({ ...current, nickname: 'not in the document' }) as never);
    expect(encoder.encode(op, 200, REQUEST_ID, await page(), true).violations).toEqual([
      { field: 'body.data.1.nickname', message: 'is not a known field' },
    ]);
    expect(calls()).toBe(4);
  });

  it('checks a changed record (a new object) afresh and names the item that breaks the document', () => {
    const encoder = new ResponseEncoder();
    const page = accountsPage();
    encoder.encode(listAccounts(), 200, REQUEST_ID, page, true);
    const changed = { ...page, data: [page.data[0], { ...page.data[1], nickname: 'not in the document' }, page.data[2]] };
    expect(encoder.encode(listAccounts(), 200, REQUEST_ID, changed, true).violations).toEqual([
      { field: 'body.data.1.nickname', message: 'is not a known field' },
    ]);
  });

  it('still checks the envelope, the status and the headers every time', () => {
    const encoder = new ResponseEncoder();
    const page = accountsPage();
    encoder.encode(listAccounts(), 200, REQUEST_ID, page, true);
    expect(encoder.encode(listAccounts(), 200, REQUEST_ID, { data: page.data }, true).violations).toEqual([
      { field: 'body.meta', message: "must have required property 'meta'" },
    ]);
    expect(encoder.encode(listAccounts(), 200, {}, page, true).violations).toEqual([
      { field: 'header.x-request-id', message: 'is required' },
    ]);
    expect(encoder.encode(listAccounts(), 418, REQUEST_ID, page, true).violations[0]!.field).toBe('status');
  });

  it('checks nothing when strict responses are off', () => {
    expect(new ResponseEncoder().encode(listAccounts(), 418, {}, { anything: true }, false)).toEqual({
      json: Buffer.from('{"anything":true}'),
      violations: [],
    });
  });
});
