// `connectMock(url)`: the typed control client for a mock started elsewhere - a
// container, `fos-mock serve`, replicas behind a balancer - which many test workers share, each
// with a customer of its own (`control.customer()`). It waits until the mock answers, so a test
// run may start it and its tests together.
import { ControlClient } from './control-client';

export interface ConnectOptions {
  /** How long to wait for the mock to answer GET /_mock/health; 30 s by default. */
  readyTimeoutMs?: number;
}

/** Between two readiness checks: short, since a mock starts in well under a second. */
const READY_POLL_MS = 100;

/** Resolves with a control client once the mock at `url` answers; rejects naming the URL and the last failure otherwise. */
export async function connectMock(url: string, options: ConnectOptions = {}): Promise<ControlClient> {
  const control = new ControlClient(url);
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    try {
      await control.health();
      return control;
    } catch (error) {
      if (Date.now() >= deadline) {
        await control.close();
        throw new Error(`fos-mock: no mock answered GET ${url}/_mock/health in time (${(error as Error).message})`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
  }
}
