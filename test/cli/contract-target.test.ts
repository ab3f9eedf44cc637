// `fos-mock contract --url` checks its target before the suite runs: a closed port, a server that
// is not this API, a target without a control API and no customer, or credentials the target
// refuses each end the command at once with one paragraph saying what to change, and exit code 2.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { probeContractTarget } from '../../mock/cli/contract-probe';
import { program } from '../../mock/main';
import { closedPort } from '../../mock/receiver/closed-port';
import { captured, listeningMock, type ListeningMock } from '../scenarios/support';

const fosMock = (...args: string[]) => captured(() => program().parseAsync(args, { from: 'user' }));

let withControl: ListeningMock;
let withoutControl: ListeningMock;
let elsewhere: Server;
let elsewhereUrl: string;
beforeAll(async () => {
  withControl = await listeningMock();
  withoutControl = await listeningMock({ controlApi: false });
  // A web server, but not of this API: every path is an HTML page not found.
  elsewhere = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await withControl.stop();
  await withoutControl.stop();
  await new Promise((resolve) => elsewhere.close(resolve));
});

/** The one paragraph on stderr, and that the suite never started (it prints nothing of its own). */
function refusedBeforeTheRun(run: { stdout: string; stderr: string; exitCode: number }): string {
  expect(run.exitCode).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^fos-mock: the contract suite did not run: /);
  return lines[0]!;
}

describe('fos-mock contract against a target the suite cannot run against', () => {
  it('a contract run against a closed port ends at once with exit code 2 and names --url', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const line = refusedBeforeTheRun(await fosMock('contract', '--url', url));
    expect(line).toContain(`nothing answers at ${url} (the connection was refused, ECONNREFUSED)`);
    expect(line).toContain('--url must be the base URL of a running server of the API');
  });

  it('a server that is not this API ends at once with exit code 2, saying what it answered', async () => {
    const line = refusedBeforeTheRun(await fosMock('contract', '--url', elsewhereUrl));
    expect(line).toContain(
      `${elsewhereUrl} is not a server of this API: GET /api/accounts without a token answered 404 (text/html), ` +
        'where the API answers 401 with its Error body. Check --url',
    );
  });

  it('a target without a control API and no customer asks for --client-id and --client-secret, not environment variables', async () => {
    const line = refusedBeforeTheRun(await fosMock('contract', '--url', withoutControl.url));
    expect(line).toContain('has no control API (GET /_mock/health answered 404)');
    expect(line).toContain('pass --client-id and --client-secret');
    expect(line).not.toContain('CONTRACT_');
  });

  it('credentials the target refuses end the run with exit code 2, naming the flags and the answer', async () => {
    const run = await fosMock('contract', '--url', withoutControl.url, '--client-id', 'demo-client', '--client-secret', 'wrong');
    const line = refusedBeforeTheRun(run);
    expect(line).toContain(
      `${withoutControl.url} refused the credentials of demo-client: POST /api/oauth/client/token answered 401 ` +
        'INVALID_CLIENT: Unknown client or wrong client secret. Check --client-id and --client-secret.',
    );
  });
});

describe('a target the suite can run against', () => {
  it('passes the check: a fos-mock with its control API, or a server of the API with credentials it accepts', async () => {
    await expect(probeContractTarget({ baseUrl: withControl.url, customers: [] })).resolves.toBeUndefined();
    const demo = { clientId: 'demo-client', clientSecret: 'demo-secret', flags: '--client-id and --client-secret' };
    await expect(probeContractTarget({ baseUrl: withoutControl.url, customers: [demo] })).resolves.toBeUndefined();
  });
});
