// Presence, configuration, reset, and waiting for webhook deliveries.
import { ok, type ControlContext, type ControlHandlers } from './context';
import { resetState } from './reset';
import { redactedUrl } from '../store';

export function systemHandlers(c: ControlContext) {
  return {
    getHealth: () => Promise.resolve(ok({ status: 'ok', now: c.deps.clock.nowIso(), frozen: c.deps.clock.frozen })),
    // The secret masked, and the password of a Redis URL.
    getConfig: () => {
      const { config } = c.deps;
      return Promise.resolve(ok({ ...config, secret: '***', ...(config.redisUrl ? { redisUrl: redactedUrl(config.redisUrl) } : {}) }));
    },
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
