import { load, serviceRequests } from './lib/load';
import { CursorCodec } from '../mock/domain/pagination/cursor';
import { tokenFrom } from './lib/targets';
import { readFileSync } from 'node:fs';
const [url, statsFile, secret, secs, prof, which] = process.argv.slice(2) as string[];
async function main() {
  const token = await tokenFrom(url!);
  const seeded = JSON.parse(readFileSync(statsFile!, 'utf8'));
  const codec = new CursorCodec(secret!);
  const span = Math.max(1, seeded.keys.last - seeded.keys.first - 9);
  const randomPage = () => {
    const key = seeded.keys.first + 10 + Math.floor(Math.random() * span);
    return `/v1/operations?limit=10&cursor=${codec.encode(`operation:${seeded.customerId}`, { key, direction: 'NEXT', order: 'DESCENDING' })}`;
  };
  const accounts = (await (await fetch(`${url}/api/accounts?limit=10`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
  const brl = accounts.data.find((a: any) => a.assets.some((x: any) => x.currency === 'BRL'));
  const req0 = { method: 'GET' as const, path: '/v1/operations?limit=10', headers: { authorization: `Bearer ${token}` }, ...(which === 'random' ? { pathFor: randomPage } : {}) };
  const req: any = which === 'quote' ? serviceRequests(token, brl.id).quote : req0;
  await load(url!, req, 10, 3);
  if (prof === 'prof') await fetch(`${url}/_bench/prof/start`);
  const r = await load(url!, req, 10, Number(secs));
  if (prof === 'prof') await fetch(`${url}/_bench/prof/stop`);
  console.log(which, JSON.stringify(r));
}
main();
