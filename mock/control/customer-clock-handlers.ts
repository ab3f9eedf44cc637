// A customer's own clock (POST /_mock/customers {clock}): read, advance, freeze, unfreeze. Like
// the mock's clock API, what falls due runs (and its webhooks are attempted) before the answer,
// but only the customer's own jobs, on every replica, and no other clock moves.
import { advancedState, frozenState, runningState, type Clock } from '../clock';
import { parseDuration } from '../domain/duration';
import { noOwnClock, type OwnClock } from '../jobs/customer-clocks';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { notFound } from './lookup';

/** Bounds one advance, as for the mock's clock: a job that keeps rescheduling itself cannot hold the request forever. */
const MAX_STEPS = 10_000;

export function customerClockHandlers(c: ControlContext) {
  const { store, clocks } = c.deps;
  const state = (customerId: string, clock: Clock & { frozen: boolean }, own: boolean) => ({
    customerId,
    own,
    now: clock.nowIso(),
    frozen: clock.frozen,
  });
  /** The customer's own clock: 404 for an unknown customer, 409 for one on the mock's clock. */
  const ownClock = async (customerId: string): Promise<OwnClock> => {
    const own = await clocks.own(customerId);
    if (own) return own;
    if (!(await store.get('customer', customerId))) throw notFound('customer', customerId);
    throw noOwnClock(customerId);
  };
  /** Moves the stored clock, then lets every replica take it and run what fell due. */
  const moved = async (customerId: string, move: Parameters<typeof clocks.move>[1]) => {
    const own = await clocks.move(customerId, move);
    await c.cluster.runDueOf(customerId);
    return ok(state(customerId, own.clock, true));
  };
  return {
    getCustomerClock: async ({ params }) => {
      const own = await clocks.own(params.customerId);
      if (own) return ok(state(params.customerId, own.clock, true));
      if (!(await store.get('customer', params.customerId))) throw notFound('customer', params.customerId);
      return ok(state(params.customerId, c.deps.clock, false));
    },
    advanceCustomerClock: async ({ params, body }) => {
      const { customerId } = params;
      const own = await ownClock(customerId);
      // As the mock's clock advances: by exactly `by`, step by step to each due time of the
      // customer's jobs, so work a job schedules inside the window (the next retry) runs too.
      let remaining = parseDuration(body.by);
      for (let steps = 0; steps < MAX_STEPS; steps++) {
        const next = await own.scheduler.nextDueAt();
        const step = next === undefined ? undefined : next - own.clock.now();
        if (step === undefined || step > remaining) break;
        if (step > 0) {
          await clocks.move(customerId, (current) => advancedState(current, step));
          remaining -= step;
        }
        await c.cluster.runDueOf(customerId);
      }
      return moved(customerId, (current) => advancedState(current, remaining));
    },
    freezeCustomerClock: async ({ params, body }) => {
      // `at` is a date-time: the control document's validator refused anything else (400).
      const at = body?.at === undefined ? undefined : Date.parse(body.at);
      await ownClock(params.customerId);
      return moved(params.customerId, (current) => frozenState(current, at));
    },
    unfreezeCustomerClock: async ({ params }) => {
      await ownClock(params.customerId);
      return moved(params.customerId, (current) => runningState(current));
    },
  } satisfies Partial<ControlHandlers>;
}
