// What a hand-rolled mock does: a plain Express handler returning the same page with res.json.
import express from 'express';
import { readFileSync } from 'node:fs';

const page: unknown = JSON.parse(readFileSync(process.argv[2] as string, 'utf8'));
const app = express();
app.get('/api/accounts', (_req, res) => {
  res.json(page);
});
app.listen(Number(process.argv[3]), '127.0.0.1');
