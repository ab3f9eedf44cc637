// A page the store sends as kept (Store.pageToSend): records listed once come as their JSON,
// written from the kept form, and the encoder sends that text; a record checked when it was
// written (checkListedWhenWritten) is not checked again, one that was not is checked as the JSON
// it is, and one that breaks the document is still named, whichever way it came.
import { describe, expect, it } from '@jest/globals';
import { checkListedWhenWritten, ResponseEncoder } from '../../mock/http/response-encoder';
import { KeptJson } from '../../mock/store/kept-json';
import { MemoryStore } from '../../mock/store/memory-store';
import type { OperationContract } from '../../spec/contract';
import { contract, countingItemCheck, demoFixtures } from './harness';

const REQUEST_ID = { 'x-request-id': '5f0c6f4e-8a9b-4c1d-9e2f-3a4b5c6d7e8f' };
/** More than the memory store keeps decoded per kind (4,096): the first records are then only kept forms. */
const FILLERS = 5000;

/** listAccounts with its item check counted. */
const counting = () => countingItemCheck(contract().byId.get('listAccounts')!);

/** Three demo accounts of customer-a (checked when written, with `op`), then enough others to push them out of the decoded window. */
async function storeOfAccounts(op?: OperationContract, change?: (account: object, i: number) => object) {
  const store = new MemoryStore();
  if (op) checkListedWhenWritten(store, op, 'account');
  const accounts = demoFixtures().accounts.slice(0, 3);
  for (const [i, account] of accounts.entries())
    await store.insert('account', 'customer-a', account.id, (change ? change(account, i) : account) as never);
  for (let i = 0; i < FILLERS; i++)
    await store.insert('account', 'customer-b', `filler-${i}`, { ...accounts[0]!, id: `filler-${i}` } as never);
  const page = async () => {
    const data = (await store.pageToSend('account', { scope: 'customer-a', limit: 3, order: 'ASCENDING' })).items.map((i) => i.record);
    return { data, meta: { previousCursor: null, nextCursor: null, total: data.length } };
  };
  return { store, accounts, page };
}

describe('a page sent as kept', () => {
  it('a record listed once comes as its JSON, the text JSON.stringify writes for it; listed again it is decoded and kept', async () => {
    const { store, page } = await storeOfAccounts();
    const first = await page();
    expect(first.data.every((item) => item instanceof KeptJson)).toBe(true);
    const decoded = (await store.page('account', { scope: 'customer-a', limit: 3, order: 'ASCENDING' })).items.map((i) => i.record);
    expect(first.data.map((item) => (item as KeptJson).json)).toEqual(decoded.map((record) => JSON.stringify(record)));
    // The page above was their second read: they are kept decoded now, and sent as those objects.
    const again = await page();
    expect(again.data).toEqual(decoded);
    expect(again.data[0]).toBe(decoded[0]);
  });

  it('the encoder sends a page of kept JSON as JSON.stringify would send the records', async () => {
    const { store, page } = await storeOfAccounts();
    const sent = new ResponseEncoder().stringify(await page());
    const data = (await store.page('account', { scope: 'customer-a', limit: 3, order: 'ASCENDING' })).items.map((i) => i.record);
    expect(sent).toBe(JSON.stringify({ data, meta: { previousCursor: null, nextCursor: null, total: 3 } }));
  });

  it('a record checked when it was written is not checked again when it is sent as kept', async () => {
    const { op, calls } = counting();
    const { page } = await storeOfAccounts(op);
    const written = calls();
    expect(written).toBe(3 + FILLERS);
    expect(new ResponseEncoder().encode(op, 200, REQUEST_ID, await page(), true).violations).toEqual([]);
    expect(calls()).toBe(written);
  });

  it('a record not checked when written is checked as the JSON it is sent as, once: the row keeps the mark', async () => {
    const { op, calls } = counting();
    const { page } = await storeOfAccounts();
    const encoder = new ResponseEncoder();
    expect(encoder.encode(op, 200, REQUEST_ID, await page(), true).violations).toEqual([]);
    expect(calls()).toBe(3);
    // Listed again (decoded now, new objects): the row's mark stands for them.
    expect(encoder.encode(op, 200, REQUEST_ID, await page(), true).violations).toEqual([]);
    expect(calls()).toBe(3);
  });

  it('a record that breaks the document is not marked when written, and is named when sent as kept, every time', async () => {
    const { op } = counting();
    const { page } = await storeOfAccounts(op, (account, i) => (i === 1 ? { ...account, nickname: 'not in the document' } : account));
    const encoder = new ResponseEncoder();
    const first = await page();
    expect(first.data[1]).toBeInstanceOf(KeptJson);
    const broken = [{ field: 'body.data.1.nickname', message: 'is not a known field' }];
    expect(encoder.encode(op, 200, REQUEST_ID, first, true).violations).toEqual(broken);
    expect(encoder.encode(op, 200, REQUEST_ID, await page(), true).violations).toEqual(broken);
  });

  it('a record changed after its page was read is checked as it was sent, and its mark does not pass to the new version', async () => {
    const { op, calls } = counting();
    const { store, accounts, page } = await storeOfAccounts();
    const encoder = new ResponseEncoder();
    const listed = await page();
    await store.update('account', accounts[0]!.id, (current) => ({ ...current, nickname: 'not in the document' }) as never);
    // The JSON sent is the one read (it passes); the row's new version is not marked by it.
    expect(encoder.encode(op, 200, REQUEST_ID, listed, true).violations).toEqual([]);
    expect(calls()).toBe(3);
    expect(encoder.encode(op, 200, REQUEST_ID, await page(), true).violations).toEqual([
      { field: 'body.data.0.nickname', message: 'is not a known field' },
    ]);
  });

  it('a write check that throws marks nothing and leaves the write whole: the record is stored, listed and checked when sent', async () => {
    const { op, calls } = counting();
    const store = new MemoryStore();
    store.checkWrites('account', op.responseFor(200)!.page!.item, () => {
      throw new Error('a check that fails to run');
    });
    const account = demoFixtures().accounts[0]!;
    await store.insert('account', 'customer-a', account.id, account as never);
    const page = await store.pageToSend('account', { scope: 'customer-a', limit: 1, order: 'ASCENDING' });
    expect(page.items.map((item) => item.record)).toEqual([account]);
    const body = { data: page.items.map((item) => item.record), meta: { previousCursor: null, nextCursor: null, total: 1 } };
    expect(new ResponseEncoder().encode(op, 200, REQUEST_ID, body, true).violations).toEqual([]);
    expect(calls()).toBe(1);
  });

  it('write checks outlast a reset of the store: records written after it are checked and marked too', async () => {
    const { op, calls } = counting();
    const store = new MemoryStore();
    checkListedWhenWritten(store, op, 'account');
    checkListedWhenWritten(store, op, 'account');
    await store.clear();
    const account = demoFixtures().accounts[0]!;
    await store.insert('account', 'customer-a', account.id, account as never);
    // Asked twice for the same check: run once per write.
    expect(calls()).toBe(1);
  });
});
