// What the terminal shows: one line per answered request (time, method, path, status, ms,
// customer, request id) and one per webhook attempt, readable text on a terminal and JSON lines
// otherwise (LOG_FORMAT chooses); never a credential; nothing at all when silent, which is what
// startMock and the tests get unless they ask.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { startMock as startPackagedMock } from '../../mock/package';
import { createLogger, flushLog, type LogOutput } from '../../mock/http/logging';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { deposit } from '../control/support';
import { startMock, type Harness } from './harness';
import { demo } from './fixture-ids';

const d = demo();
const TIME = '\\d{2}:\\d{2}:\\d{2}\\.\\d{3}';
const UUID = '[0-9a-f-]{36}';

/** A terminal (or a pipe) that keeps what is written, and says when a line matching a pattern arrived. */
class Screen implements LogOutput {
  readonly lines: string[] = [];
  private waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  constructor(readonly isTTY: boolean) {}
  write(text: string): boolean {
    for (const line of text.split('\n').filter(Boolean)) {
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => !(w.pattern.test(line) && (w.resolve(line), true)));
    }
    return true;
  }
  /** The first line matching `pattern`, now or when it is written. */
  line(pattern: RegExp): Promise<string> {
    const seen = this.lines.find((line) => pattern.test(line));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ pattern, resolve }));
  }
}

async function mockOn(screen: Screen, logFormat: 'auto' | 'text' | 'json', logLevel = 'info'): Promise<Harness> {
  return startMock({ logger: createLogger({ logLevel, logFormat }, screen) });
}

describe('on a terminal (LOG_FORMAT auto)', () => {
  let screen: Screen;
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    screen = new Screen(true);
    h = await mockOn(screen, 'auto');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  it('a request is one readable line: time, method, path, status, ms, customer and request id', async () => {
    const api = await h.as();
    const res = await api.get('/api/accounts?limit=1').expect(200);
    const id = String(res.headers['x-request-id']);
    const line = await screen.line(new RegExp(`request ${id}$`));
    expect(line).toMatch(new RegExp(`^${TIME} GET {4}/api/accounts 200 \\d+\\.\\d ms customer ${d.c1.id} request ${id}$`));
  });

  it('a request without a customer (the token call, a 404) has no customer on its line; a control call has its line too', async () => {
    const missing = await h.http.get('/v1/accounts').expect(404);
    const reset = await h.http.post('/_mock/clock/freeze').send({}).expect(200);
    expect(await screen.line(new RegExp(String(missing.headers['x-request-id'])))).toMatch(
      new RegExp(`^${TIME} GET {4}/v1/accounts 404 \\S+ ms request ${UUID}$`),
    );
    expect(await screen.line(new RegExp(String(reset.headers['x-request-id'])))).toContain(' POST   /_mock/clock/freeze 200 ');
  });

  it('a webhook attempt is one line: event type, URL, status, outcome, attempt, time taken and message id', async () => {
    const api = await h.as();
    await api.post('/api/subscriptions', { url: receiver.url, includeAll: true }).expect(201);
    await deposit(api, '1.00');
    const line = await screen.line(/ webhook OPERATION_REQUESTED /);
    expect(line).toMatch(
      new RegExp(`^${TIME} webhook OPERATION_REQUESTED ${receiver.url} 200 SUCCESS attempt 1 \\(\\S+ ms\\) message ${UUID}$`),
    );
  });

  it('no line carries a credential: not the client secret, the access token or the Authorization header', async () => {
    const login = await h.http.post('/api/oauth/client/token').send({ clientId: 'demo-client', clientSecret: 'demo-secret' }).expect(200);
    const token = String(login.body.accessToken);
    const read = await h.http.get('/api/accounts').set('Authorization', `Bearer ${token}`).expect(200);
    await screen.line(new RegExp(String(read.headers['x-request-id'])));
    const everything = screen.lines.join('\n');
    for (const secret of ['demo-secret', token, 'Bearer', 'authorization']) expect(everything).not.toContain(secret);
  });
});

describe('not on a terminal (LOG_FORMAT auto), or LOG_FORMAT=json', () => {
  it.each<['auto' | 'json', boolean]>([
    ['auto', false],
    ['json', true],
  ])('LOG_FORMAT=%s (a terminal: %s) writes a request as a JSON line', async (format, tty) => {
    const screen = new Screen(tty);
    const h = await mockOn(screen, format);
    try {
      const res = await h.http.get('/v1/accounts').expect(404);
      const line = await screen.line(new RegExp(String(res.headers['x-request-id'])));
      expect(JSON.parse(line)).toMatchObject({
        level: 30,
        msg: 'request',
        method: 'GET',
        path: '/v1/accounts',
        status: 404,
        ms: expect.any(Number),
        requestId: res.headers['x-request-id'],
      });
    } finally {
      await h.close();
    }
  });

  it('LOG_FORMAT=text writes text even when not on a terminal', async () => {
    const screen = new Screen(false);
    const h = await mockOn(screen, 'text');
    try {
      const res = await h.http.get('/v1/accounts').expect(404);
      expect(await screen.line(new RegExp(String(res.headers['x-request-id'])))).toMatch(new RegExp(`^${TIME} GET `));
    } finally {
      await h.close();
    }
  });
});

describe('quiet', () => {
  it('LOG_LEVEL=silent (or warn) writes no request line', async () => {
    for (const level of ['silent', 'warn']) {
      const screen = new Screen(true);
      const h = await mockOn(screen, 'text', level);
      try {
        const res = await h.http.get('/v1/accounts').expect(404);
        // The journal has the request, so its line would be waiting to go out: it is sent now.
        expect((await h.mock.journal.find(String(res.headers['x-request-id'])))?.status).toBe(404);
        flushLog(h.mock.logger);
        expect(screen.lines).toEqual([]);
      } finally {
        await h.close();
      }
    }
  });

  it('startMock() writes nothing to stdout while it answers, unless given a log level', async () => {
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array) => written.push(String(chunk)) > 0;
    try {
      const mock = await startPackagedMock();
      try {
        const res = await fetch(`${mock.url}/v1/accounts`);
        await res.text();
        await mock.control.journal(1);
      } finally {
        await mock.close();
      }
    } finally {
      process.stdout.write = write;
    }
    expect(written).toEqual([]);
  });
});

describe('fos-mock serve, as a real process', () => {
  it('with the default level prints a line per request after its banner (LOG_FORMAT=text)', async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), LOG_FORMAT: 'text' };
    delete env.LOG_LEVEL;
    const child = spawn(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), 'serve'], { env });
    const screen = new Screen(false);
    child.stdout.on('data', (chunk: Buffer) => screen.write(chunk.toString()));
    try {
      await screen.line(/^fos-mock listening on /);
      const res = await fetch(`http://127.0.0.1:${port}/v1/accounts`);
      await res.text();
      const id = String(res.headers.get('x-request-id'));
      expect(await screen.line(new RegExp(id))).toMatch(new RegExp(`^${TIME} GET {4}/v1/accounts 404 \\S+ ms request ${id}$`));
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }, 60_000);
});
