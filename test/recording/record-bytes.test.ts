// `fos-mock record` passes bodies through as the bytes they are: a body that is not UTF-8 (a
// gateway's Latin-1 error page, say) reaches the client unchanged, and the HAR file keeps it as
// base64 rather than as text with replacement characters.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { harOf } from '../../mock/cli/record-har';
import { startRecorder, type Recorder } from '../../mock/cli/record-proxy';

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
