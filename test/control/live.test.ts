// The inspector's push channel: GET /_mock/live is a Server-Sent Events stream of change notices,
// gathered for 100 ms. A service request is news; the inspector's own reads are not (they would
// echo for ever); a control call that changes something names every topic.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { LiveFeed } from '../../mock/events/live-feed';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { startMock, type Authed, type Harness } from '../http/harness';
import { openLiveStream } from '../support/live-stream';
import { within } from '../support/waits';
import { control, deposit } from './support';

describe('LiveFeed', () => {
  it('gathers the topics of a burst into one notice and hands it to listeners and the relay', async () => {
    jest.useFakeTimers();
    try {
      const feed = new LiveFeed();
      const heard: string[][] = [];
      const relayed: string[][] = [];
      feed.subscribe((topics) => heard.push([...topics]));
      feed.relay = (topics) => relayed.push([...topics]);
      for (let i = 0; i < 1000; i++) feed.notify('requests');
      feed.notify('state', 'jobs');
      expect(heard).toEqual([]);
      await jest.advanceTimersByTimeAsync(100);
      expect(heard).toEqual([['requests', 'state', 'jobs']]);
      expect(relayed).toEqual(heard);
      feed.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('with no page open here or on another replica, a change is not relayed; once another says it watches, it is', async () => {
    jest.useFakeTimers();
    try {
      const feed = new LiveFeed();
      const relayed: string[][] = [];
      feed.relay = (topics) => relayed.push([...topics]);
      feed.notify('requests');
      await jest.advanceTimersByTimeAsync(100);
      expect(relayed).toEqual([]);
      feed.receiveWatching();
      feed.notify('requests');
      await jest.advanceTimersByTimeAsync(100);
      expect(relayed).toEqual([['requests']]);
      feed.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('notices from another replica reach the listeners here, unknown topics dropped, and are never relayed again', () => {
    const feed = new LiveFeed();
    const heard: string[][] = [];
    const relayed: string[][] = [];
    feed.subscribe((topics) => heard.push([...topics]));
    feed.relay = (topics) => relayed.push([...topics]);
    feed.receive(['clock', 'nonsense']);
    feed.receive(['nonsense']);
    expect(heard).toEqual([['clock']]);
    expect(relayed).toEqual([]);
    feed.close();
  });
});

describe('GET /_mock/live', () => {
  let h: Harness;
  let api: Authed;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    h = await startMock();
    api = await h.as();
    server = createServer(h.mock.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await h?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  const openStream = () => openLiveStream(base);

  it('answers a text/event-stream with X-Request-Id', async () => {
    const stream = await openStream();
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await stream.close();
  });

  it('a service request is a "requests" notice; a deposit is a "state" notice', async () => {
    const stream = await openStream();
    await deposit(api, '1.00');
    await stream.until('requests');
    await stream.until('state');
    await stream.close();
  });

  it('a request to /_mockery is a service request, so it is a "requests" notice', async () => {
    const stream = await openStream();
    await api.get('/_mockery').expect(404);
    expect(await stream.until('requests')).toEqual([['requests']]);
    await stream.close();
  });

  it('reads of the control API are no news, so a page reading after each notice does not echo', async () => {
    const stream = await openStream();
    await control(h).get('/journal?limit=1').expect(200);
    await control(h).get('/state').expect(200);
    // A marker after them: every notice up to it came from the marker alone.
    await api.get('/api/accounts?limit=1').expect(200);
    const notices = await stream.until('requests');
    expect(notices).toEqual([['requests']]);
    await stream.close();
  });

  it('?topics= keeps only the notices naming those topics; an unknown topic is 400 VALIDATION_ERROR', async () => {
    const stream = await openLiveStream(base, 'topics=clock');
    await api.get('/api/accounts?limit=1').expect(200);
    await control(h).post('/clock/advance', { by: '1s' }).expect(200);
    const notices = await stream.until('clock');
    expect(notices).toEqual([['clock']]);
    await stream.close();
    const refused = await fetch(`${base}/_mock/live?topics=clock&topics=weather`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
  });

  it('HEAD answers the headers of a stream and ends; a GET that carried a body still streams', async () => {
    const head = await fetch(`${base}/_mock/live`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // A body on a GET is read and ignored: the stream must not end with it.
    const stream = await openLiveStream(base, '', { 'content-type': 'application/json', body: '{}' });
    await api.get('/api/accounts?limit=1').expect(200);
    await stream.until('requests');
    await stream.close();
  });

  it('a control call that changes something names every topic', async () => {
    const stream = await openStream();
    await control(h).post('/clock/advance', { by: '1s' }).expect(200);
    const notices = await stream.until('clock');
    expect(notices.at(-1)).toEqual(expect.arrayContaining(['requests', 'state', 'deliveries', 'jobs', 'clock', 'faults']));
    await stream.close();
  });
});

describe('closing the app', () => {
  it('ends the streams still open, so the server can close with an inspector page open', async () => {
    const h = await startMock();
    const server = createServer(h.mock.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/_mock/live`);
    const reader = res.body!.getReader();
    await reader.read();
    await h.close();
    // The stream ends (done) rather than hanging; then the server closes.
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('fos-mock serve, stopped with an inspector page open', () => {
  it('ends the push stream cleanly, then closes and exits 0 (SIGTERM)', async () => {
    const port = await freePort();
    const child = spawn(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), 'serve', '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Ready when it says it listens (not polled: a loop of refused connections would only slow its start).
    let printed = '';
    await within(
      'fos-mock serve to print "fos-mock listening on"',
      new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          printed += chunk.toString('utf8');
          if (printed.includes('fos-mock listening on')) resolve();
        });
        void exited.then((code) => reject(new Error(`fos-mock serve exited (${code}) before listening:\n${printed}`)));
      }),
    );
    const res = await fetch(`http://127.0.0.1:${port}/_mock/live`);
    const reader = res.body!.getReader();
    await reader.read();
    child.kill('SIGTERM');
    // The stream ends as a stream does (done), not cut off by the process exiting under it.
    let chunk = await reader.read();
    while (!chunk.done) chunk = await reader.read();
    expect(await exited).toBe(0);
  });
});
