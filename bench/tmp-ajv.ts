import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createApp } from '../mock/app';
import { MemoryStore } from '../mock/store/memory-store';
import { seedOperations } from './lib/seed-operations';
import { closeObjects, DOCUMENT_ID, rewriteRefs } from '../spec/contract/schema-transform';

function strip(node: any): any {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  const out: any = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'discriminator' && v && typeof v === 'object') out[k] = { propertyName: (v as any).propertyName };
    else out[k] = strip(v);
  }
  return out;
}
function make(doc: any, opts: { disc: boolean; close: boolean; formats: boolean; allErrors: boolean; only?: string }) {
  const ajv = new Ajv2020({ strict: false, allErrors: opts.allErrors, discriminator: opts.disc });
  if (opts.formats || opts.only) addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-extensible-enum', schemaType: 'array', validate: () => true });
  let components: any = rewriteRefs(doc.components);
  if (opts.close) components = closeObjects(components);
  if (opts.disc) components = strip(components);
  ajv.addSchema({ $id: DOCUMENT_ID, components });
  if (!opts.formats) for (const f of ['date-time','uuid','uri','email','date','decimal']) if (f !== opts.only) ajv.addFormat(f, true);
  return ajv.compile({ $ref: DOCUMENT_ID + '#/components/schemas/Operation' });
}
async function main() {
  const store = new MemoryStore();
  const mock = await createApp({ store, precompiled: true, config: { logLevel: 'silent', autoSettleMs: null } });
  const customerId = mock.fixtures.customers[0]!.id;
  await seedOperations(store, mock.deps.reference, customerId, 4000);
  const all = (await store.page('operation', { scope: customerId, limit: 4000, order: 'DESCENDING' })).items.map((i) => structuredClone(i.record));
  const doc = mock.contract.document;
  const variants: Record<string, any> = {
    base: { disc: false, close: true, formats: true, allErrors: true },
    disc: { disc: true, close: true, formats: true, allErrors: true },
    noclose: { disc: false, close: false, formats: true, allErrors: true },
    noformats: { disc: false, close: true, formats: false, allErrors: true },
    discNoClose: { disc: true, close: false, formats: true, allErrors: true },
    onlyDT: { disc: false, close: true, formats: false, allErrors: true, only: 'date-time' },
    onlyUuid: { disc: false, close: true, formats: false, allErrors: true, only: 'uuid' },
    onlyUri: { disc: false, close: true, formats: false, allErrors: true, only: 'uri' },
  };
  const fns = Object.fromEntries(Object.entries(variants).map(([k, o]) => [k, make(doc, o)]));
  for (let rep = 0; rep < 3; rep++) {
    for (const [k, f] of Object.entries(fns)) {
      const t = performance.now(); let bad = 0;
      for (let j = 0; j < 5; j++) for (const r of all) if (!f(r)) bad++;
      console.log(rep, k, ((performance.now() - t) * 1000 / all.length / 5).toFixed(2), 'us', bad, bad ? JSON.stringify(f.errors?.slice(0,2)) : '');
    }
  }
}
main();
