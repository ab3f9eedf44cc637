import { createApp } from '../mock/app';
import { MemoryStore } from '../mock/store/memory-store';
import { seedOperations } from './lib/seed-operations';

async function main() {
  const store = new MemoryStore();
  const mock = await createApp({ store, precompiled: true, config: { logLevel: 'silent', autoSettleMs: null } });
  const customerId = mock.fixtures.customers[0]!.id;
  const N = Number(process.argv[2] ?? 20000);
  await seedOperations(store, mock.deps.reference, customerId, N);
  const contract = (mock as any).contract;
  const op = [...contract.byId.values()].find((o: any) => o.operationId.toLowerCase().includes('listoperations')) as any;
  const item = op.responseFor(200).page.item;
  for (let rep = 0; rep < 4; rep++) {
  // decode: page through the whole store in windows
  const all: any[] = [];
  let t = performance.now();
  let cursor: any;
  for (let k = 0; k < N / 10; k++) {
    const page: any = await store.page('operation', { scope: customerId, limit: 10, order: 'DESCENDING', ...(cursor ? { from: { key: cursor, direction: 'NEXT' } } : {}) });
    all.push(...page.items.map((i: any) => i.record));
    cursor = page.items.at(-1)?.key;
    if (!cursor) break;
  }
  const tDecode = (performance.now() - t) / all.length;
  t = performance.now();
  let bad = 0;
  for (const r of all) if (item(r).errors.length) bad++;
  const tCheck = (performance.now() - t) / all.length;
  t = performance.now();
  let len = 0;
  for (const r of all) len += JSON.stringify(r).length;
  const tStr = (performance.now() - t) / all.length;
  console.log({ n: all.length, bad, decodeUs: tDecode * 1000, checkUs: tCheck * 1000, stringifyUs: tStr * 1000, avgJson: len / all.length });
  }
}
main();
