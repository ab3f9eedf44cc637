// `startMock()`: the mock inside a team's own tests. Each call is a mock of its own: its own
// port (ephemeral by default), its own state (the demo fixtures, or yours), and an isolated
// customer made for the caller, so tests never see each other's records. The options are the
// same typed configuration `fos-mock serve` builds, checked the same way.
import type { AddressInfo } from 'node:net';
import { createApp } from '../app';
import { checkedConfig, type Config, type ResolvedConfig } from '../config';
import { createServer } from '../server';
import { ControlClient } from './control-client';

export interface StartMockOptions extends Partial<Config> {
  /**
   * Make a customer of its own for the caller (POST /_mock/customers, copies of demo-client's
   * accounts and beneficiaries) and hand out its credentials; default true. False hands out
   * demo-client's (the control API must be on for an isolated customer).
   */
  isolatedCustomer?: boolean;
}

export interface RunningMock {
  /** Base URL, e.g. http://127.0.0.1:41234 (service API at its root, control API under /_mock). */
  url: string;
  port: number;
  /** Credentials of the caller's customer, for POST /api/oauth/client/token. */
  clientId: string;
  clientSecret: string;
  /** That customer's id (the token's `sub`). */
  customerId: string;
  /** Typed helpers over /_mock (reset, clock, settle, faults, balances, snapshots …). */
  control: ControlClient;
  /** The configuration it runs with (the signing secret included: its own, FOS_MOCK_SECRET's or the one shared in Redis). */
  config: ResolvedConfig;
  /** Stops the server, its timers and its webhook connections. */
  close(): Promise<void>;
}

/** Starts a mock and resolves when it answers; a bad option rejects with a ConfigError naming it. */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const { isolatedCustomer = true, ...settings } = options;
  const config = checkedConfig({ port: 0, logLevel: 'silent', ...settings });
  if (isolatedCustomer && !config.controlApi) {
    throw new Error('fos-mock: an isolated customer needs the control API; pass isolatedCustomer: false with controlApi: false');
  }
  const mock = await createApp({ config, precompiled: true });
  const server = createServer(mock.app, config);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    await mock.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
  const control = new ControlClient(url);
  const close = async () => {
    await control.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await mock.close();
  };
  try {
    const demo = mock.fixtures.customers[0];
    const customer = isolatedCustomer
      ? await control.newCustomer()
      : demo && { customerId: demo.id, clientId: demo.clientId, clientSecret: demo.clientSecret };
    if (!customer) throw new Error('fos-mock: the fixtures hold no customer to hand out');
    return {
      url,
      port,
      clientId: customer.clientId,
      clientSecret: customer.clientSecret,
      customerId: customer.customerId,
      control,
      config: mock.deps.config,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
