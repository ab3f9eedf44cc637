// How the journal records a request and where it keeps it: the summary of each answered (or
// dropped) request, the exchange (headers and bodies) kept beside it within the same bound, and a
// shared journal (REDIS_URL) that takes the summaries instead of this replica's ring buffer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { createClock } from '../../mock/clock';
import { Journal, type JournalEntry, type SharedJournal } from '../../mock/http/journal';
import type { JournalExchange } from '../../mock/http/journal-exchange';
import { assignRequestId, localsOf } from '../../mock/http/request-id';
import { startMock } from './harness';
import { within } from '../support/waits';

const entry = (n: number, status = 200): JournalEntry => ({
  requestId: `r${n}`,
  method: 'GET',
  path: `/p/${n}`,
  status,
  latencyMs: 1,
  at: '2026-01-01T00:00:00.000Z',
});
const exchange = (n: number): JournalExchange => ({
  request: { query: `?n=${n}`, headers: {}, bodyTruncated: false },
  response: { headers: {}, truncated: false },
});

/** A shared journal that keeps what it is sent, as Redis would, and says what it was asked. */
class FakeShared implements SharedJournal {
  pushed: Array<{ json: string; size: number }> = [];
  flushes = 0;
  clears = 0;
  asked: number[] = [];
  journalPush(json: string, size: number): void {
    this.pushed.unshift({ json, size });
  }
  journalFlush(): Promise<void> {
    this.flushes++;
    return Promise.resolve();
  }
  journalLatest(limit: number): Promise<string[]> {
    this.asked.push(limit);
    return Promise.resolve(this.pushed.slice(0, limit).map((p) => p.json));
  }
  journalClear(): Promise<void> {
    this.clears++;
    this.pushed = [];
    return Promise.resolve();
  }
}

describe('the exchanges a journal keeps', () => {
  it('keeps at most `capacity` exchanges, dropping the oldest, and entries recorded without one take no room', () => {
    const journal = new Journal(2);
    journal.add(entry(1), exchange(1));
    journal.add(entry(2));
    journal.add(entry(3));
    journal.add(entry(4), exchange(4));
    expect(journal.exchange('r1')).toEqual(exchange(1));
    expect(journal.exchange('r4')).toEqual(exchange(4));
    journal.add(entry(5), exchange(5));
    expect(journal.exchange('r1')).toBeUndefined();
    expect(journal.exchange('r5')).toEqual(exchange(5));
  });

  it('forgets the exchanges on clear', () => {
    const journal = new Journal(2);
    journal.add(entry(1), exchange(1));
    journal.clear();
    expect(journal.exchange('r1')).toBeUndefined();
    expect(journal.size).toBe(0);
  });
});

describe('a shared journal', () => {
  it('sends each entry to the shared journal as JSON with the size to keep, and not to the ring', () => {
    const shared = new FakeShared();
    const journal = new Journal(3, shared);
    journal.add(entry(1));
    expect(shared.pushed).toEqual([{ json: JSON.stringify(entry(1)), size: 3 }]);
    expect(journal.latest()).toEqual([]);
    expect(journal.size).toBe(0);
  });

  it('reads the entries back from the shared journal, asking for no more than its capacity', async () => {
    const shared = new FakeShared();
    const journal = new Journal(3, shared);
    for (let n = 1; n <= 5; n++) journal.add(entry(n));
    expect(await journal.entries()).toEqual([entry(5), entry(4), entry(3)]);
    expect(await journal.entries(2)).toEqual([entry(5), entry(4)]);
    expect(await journal.entries(5000)).toEqual([entry(5), entry(4), entry(3)]);
    expect(shared.asked).toEqual([3, 2, 3]);
    expect(await journal.find('r4')).toEqual(entry(4));
  });

  it('flushes what this replica queued, then empties the shared journal, on reset', async () => {
    const shared = new FakeShared();
    const journal = new Journal(3, shared);
    journal.add(entry(1), exchange(1));
    await journal.flush();
    expect(shared.flushes).toBe(1);
    await journal.reset();
    expect(shared.flushes).toBe(2);
    expect(shared.clears).toBe(1);
    expect(await journal.entries()).toEqual([]);
    expect(journal.exchange('r1')).toBeUndefined();
  });

  it('without a shared journal, reads and resets its own ring', async () => {
    const journal = new Journal(3);
    journal.add(entry(1));
    expect(await journal.entries()).toEqual([entry(1)]);
    await journal.reset();
    expect(await journal.entries()).toEqual([]);
  });
});

describe('recording a request as it is answered', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /**
   * Resolves once the journal has recorded `count` entries in all. An entry is recorded when its
   * response closes on the server's side, which may come after the client has read the answer:
   * the test waits for the record itself (Journal.onRecord), not for a guessed pause.
   */
  function recorded(journal: Journal, count: number): Promise<void> {
    return within(
      `${count} journal entries`,
      new Promise<void>((resolve) => {
        let seen = journal.size;
        const check = () => seen >= count && resolve();
        journal.onRecord = () => {
          seen++;
          // Resolved after add() has stored the entry (a promise's reactions run later).
          check();
        };
        check();
      }),
    );
  }

  /** A server whose every request the journal tracks; `answer` answers it. */
  async function serve(journal: Journal, answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
    const clock = createClock({ start: Date.parse('2026-11-21T12:00:00.000Z'), frozen: true });
    server = createServer((req, res) => {
      assignRequestId(res);
      journal.track(clock, req, res, (req.url ?? '/').split('?')[0]!);
      answer(req, res);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('records the method, path, status, the mock time it arrived and how long it took, in milliseconds', async () => {
    const journal = new Journal(5);
    const base = await serve(journal, (_req, res) => {
      setTimeout(() => res.writeHead(201, { 'Content-Type': 'application/json' }).end('{}'), 40);
    });
    const sent = performance.now();
    const res = await fetch(`${base}/things?x=1`, { method: 'POST' });
    await res.text();
    await recorded(journal, 1);
    const [entry] = journal.latest();
    expect(entry).toStrictEqual({
      requestId: res.headers.get('x-request-id'),
      method: 'POST',
      path: '/things',
      status: 201,
      latencyMs: expect.any(Number),
      at: '2026-11-21T12:00:00.000Z',
    });
    // In milliseconds: at least the answer's 40 ms delay (less a timer's slack), and no more than
    // the client saw from sending to the answer read (plus the close), however slow the machine.
    expect(entry!.latencyMs).toBeGreaterThanOrEqual(35);
    expect(entry!.latencyMs).toBeLessThanOrEqual(performance.now() - sent);
    expect(journal.size).toBe(1);
  });

  it('names the customer and the fault only when the pipeline left them', async () => {
    const journal = new Journal(5);
    const base = await serve(journal, (req, res) => {
      if (req.url === '/authed') {
        localsOf(res).customerId = 'c-1';
        localsOf(res).fault = { id: 'f-1', error: 503 };
      }
      res.end('ok');
    });
    await (await fetch(`${base}/plain`)).text();
    await recorded(journal, 1);
    await (await fetch(`${base}/authed`)).text();
    await recorded(journal, 2);
    const [authed, plain] = journal.latest();
    expect(Object.keys(plain!).sort()).toEqual(['at', 'latencyMs', 'method', 'path', 'requestId', 'status']);
    expect(authed).toMatchObject({ customerId: 'c-1', fault: { id: 'f-1', error: 503 } });
  });

  it('keeps the exchange of every answered request, a success as well as an error, with nobody looking', async () => {
    const journal = new Journal(5);
    const base = await serve(journal, (req, res) => {
      res.statusCode = req.url === '/fail' ? 500 : 200;
      res.end();
    });
    const recorded = new Promise<void>((resolve) => {
      let count = 0;
      journal.onRecord = () => void (++count === 2 && resolve());
    });
    const ok = await fetch(`${base}/ok?x=1`);
    const failed = await fetch(`${base}/fail`);
    await Promise.all([ok.text(), failed.text(), recorded]);
    expect(journal.exchange(ok.headers.get('x-request-id')!)?.request.query).toBe('x=1');
    expect(journal.exchange(failed.headers.get('x-request-id')!)?.request.query).toBe('');
  });
});

describe('the journal of the control API', () => {
  it('records a control request under its path without the query', async () => {
    const h = await startMock();
    try {
      await h.http.get('/_mock/health?verbose=1').expect(200);
      const res = await h.http.get('/_mock/journal?limit=1').expect(200);
      expect(res.body.data[0]).toMatchObject({ method: 'GET', path: '/_mock/health', status: 200 });
    } finally {
      await h.close();
    }
  });
});
