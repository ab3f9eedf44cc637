// Presence, configuration, reset, and waiting for webhook deliveries.
import { ok, type ControlContext, type ControlHandlers } from './context';
import { resetState } from './reset';

export function systemHandlers(c: ControlContext) {
  return {
    getHealth: () => Promise.resolve(ok({ status: 'ok', now: c.deps.clock.nowIso(), frozen: c.deps.clock.frozen })),
    getConfig: () => Promise.resolve(ok({ ...c.deps.config, secret: '***' })),
    resetState: async () => {
      await resetState(c);
      return ok({ status: 'reset' });
    },
    waitForWebhooks: async () => {
      await c.cluster.ask('idle');
      return ok({ status: 'idle' });
    },
  } satisfies Partial<ControlHandlers>;
}
