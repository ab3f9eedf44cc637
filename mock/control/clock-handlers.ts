// The mock clock: read, advance, freeze, unfreeze. Whatever falls due runs (and its webhooks
// are attempted) before the answer, so a caller sees the effects at once.
import { ok, settleDueWork, type ControlContext, type ControlHandlers } from './context';
import { parseDuration } from '../domain/duration';

/** Bounds one advance: a job that keeps rescheduling itself cannot hold the request forever. */
const MAX_STEPS = 10_000;

export function clockHandlers(c: ControlContext) {
  const { clock } = c.deps;
  const state = () => ({ now: clock.nowIso(), frozen: clock.frozen });
  /** Moves this replica's clock, then the shared one. */
  const moved = async (move: () => void) => {
    move();
    await c.cluster.clockChanged();
  };
  return {
    getClock: () => Promise.resolve(ok(state())),
    advanceClock: async ({ body }) => {
      // Moves the clock by exactly `by`, counted step by step (not to an instant computed at the
      // start), so two advances made at once through two replicas add up.
      let remaining = parseDuration(body.by);
      // Walk to each due time in turn, the earliest job of the cluster, so work that a job
      // schedules inside the window (the next webhook retry, say) runs too: advancing 2 h runs
      // the whole retry schedule.
      for (let steps = 0; steps < MAX_STEPS; steps++) {
        const next = await c.cluster.nextDueAt();
        const step = next === undefined ? undefined : next - clock.now();
        if (step === undefined || step > remaining) break;
        if (step > 0) {
          await c.cluster.advanceClock(step);
          remaining -= step;
        }
        await settleDueWork(c);
      }
      if (remaining > 0) await c.cluster.advanceClock(remaining);
      await settleDueWork(c);
      return ok(state());
    },
    freezeClock: async ({ body }) => {
      await moved(() => clock.freeze(body?.at === undefined ? undefined : Date.parse(body.at)));
      await settleDueWork(c);
      return ok(state());
    },
    unfreezeClock: async () => {
      await moved(() => clock.unfreeze());
      await settleDueWork(c);
      return ok(state());
    },
  } satisfies Partial<ControlHandlers>;
}
