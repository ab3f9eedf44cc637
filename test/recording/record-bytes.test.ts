// `fos-mock record` passes bodies through as the bytes they are: a body that is not UTF-8 (a
// gateway's Latin-1 error page, say) reaches the client unchanged, and the HAR file keeps it as
// base64 rather than as text with replacement characters, with any token in it scrubbed all the same.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { harOf } from '../../mock/cli/record-har';
import { startRecorder, type Recorder } from '../../mock/cli/record-proxy';
import { REDACTED } from '../../mock/cli/record-secrets';
import { writeRecording } from '../../mock/cli/record-session';

/** "Não encontrado" in Latin-1: the ã is one byte (0xE3), which is not UTF-8. */
const LATIN1_PAGE = Buffer.from('Não encontrado', 'latin1');
const BINARY_UPLOAD = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3]);

let target: Server;
let recorder: Recorder;
const received: Buffer[] = [];

beforeAll(async () => {
  target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(Buffer.concat(chunks));
      if (req.url === '/echo') {
        // A gateway's Latin-1 page that quotes the credentials it was sent.
        res.writeHead(401, { 'content-type': 'text/html; charset=iso-8859-1' });
        res.end(Buffer.concat([LATIN1_PAGE, Buffer.from(` ${req.headers.authorization}`, 'latin1')]));
        return;
      }
      if (req.url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ name: 'Conceição' }));
        return;
      }
      res.writeHead(502, { 'content-type': 'text/html; charset=iso-8859-1' });
      res.end(LATIN1_PAGE);
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  recorder = await startRecorder({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, port: 0 });
});

afterAll(async () => {
  await recorder.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

describe('record: bodies as bytes', () => {
  it('a body that is not UTF-8 reaches the target and the client unchanged, and the HAR keeps it as base64', async () => {
    const answer = await fetch(`${recorder.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: BINARY_UPLOAD,
    });
    expect(answer.status).toBe(502);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(LATIN1_PAGE);
    expect(received.at(-1)).toEqual(BINARY_UPLOAD);

    const exchange = recorder.exchanges.at(-1)!;
    expect(exchange.responseEncoding).toBe('base64');
    expect(Buffer.from(exchange.responseBody, 'base64')).toEqual(LATIN1_PAGE);
    expect(exchange.requestEncoding).toBe('base64');
    expect(Buffer.from(exchange.requestBody, 'base64')).toEqual(BINARY_UPLOAD);

    const entry = (harOf([exchange], 'http://sandbox.example', '0.0.0') as HarLog).log.entries[0]!;
    expect(entry.response.content).toEqual(expect.objectContaining({ encoding: 'base64', size: LATIN1_PAGE.length }));
    expect(Buffer.from(entry.response.content.text, 'base64')).toEqual(LATIN1_PAGE);
    expect(entry.request.postData).toEqual(expect.objectContaining({ comment: 'base64', text: BINARY_UPLOAD.toString('base64') }));
    expect(entry.request.bodySize).toBe(BINARY_UPLOAD.length);
  });

  it('a token inside a body kept as base64 is scrubbed from the HAR file too', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJl';
    const answer = await fetch(`${recorder.url}/echo`, { headers: { authorization: `Bearer ${token}` } });
    expect(Buffer.from(await answer.arrayBuffer()).toString('latin1')).toContain(token);
    const exchange = recorder.exchanges.at(-1)!;
    expect(exchange.responseEncoding).toBe('base64');
    const folder = mkdtempSync(join(tmpdir(), 'fos-record-bytes-'));
    const har = join(folder, 'session.har');
    const flags = { target: 'http://sandbox.example', port: '0', host: '127.0.0.1', out: join(folder, 's.yaml'), har, customer: 'demo' };
    writeRecording([exchange], flags, '0.0.0');
    const text = readFileSync(har, 'utf8');
    expect(text).not.toContain(token);
    const entry = (JSON.parse(text) as HarLog).log.entries[0]!;
    const body = Buffer.from(entry.response.content.text, 'base64').toString('latin1');
    expect(body).not.toContain(token);
    // The whole header value is a secret too (the longest is replaced first).
    expect(body).toBe(`${LATIN1_PAGE.toString('latin1')} ${REDACTED}`);
  });

  it('a UTF-8 body is kept as its text, with no encoding', async () => {
    const answer = await fetch(`${recorder.url}/json`);
    expect(await answer.json()).toEqual({ name: 'Conceição' });
    const exchange = recorder.exchanges.at(-1)!;
    expect(exchange.responseBody).toBe('{"name":"Conceição"}');
    expect(exchange.responseEncoding).toBeUndefined();
    const entry = (harOf([exchange], 'http://sandbox.example', '0.0.0') as HarLog).log.entries[0]!;
    expect(entry.response.content.encoding).toBeUndefined();
    expect(entry.response.content.size).toBe(Buffer.byteLength('{"name":"Conceição"}'));
  });
});

interface HarLog {
  log: {
    entries: Array<{
      request: { postData?: { text: string; comment?: string }; bodySize: number };
      response: { content: { text: string; size: number; encoding?: string } };
    }>;
  };
}
