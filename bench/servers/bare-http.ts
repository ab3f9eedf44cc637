// The ceiling: a bare Node http server writing a pre-serialized page (the same bytes fos-mock
// answers for the list), with no auth, validation or state.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2] as string);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[3]), '127.0.0.1');
