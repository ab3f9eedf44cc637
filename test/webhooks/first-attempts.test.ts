// A first attempt is due at once, whatever the mock clock shows: moving the clock back (freezing
// it at an earlier instant) does not hold back deliveries already queued, nor let later events
// overtake them.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Receiver } from '../../mock/receiver/receiver';
import { control, deposit } from '../control/support';
import type { Authed, Harness } from '../http/harness';
import { useSubscribedMock } from '../http/subscribed-mock';
import { until } from '../support/waits';

let h: Harness;
let api: Authed;
let receiver: Receiver;

// A delivery time-out far beyond the test: the first delivery hangs until the test releases it.
const env = useSubscribedMock(
  { resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] },
  { config: { autoSettleMs: null, webhookTimeoutMs: 600_000 } },
);
beforeAll(() => {
  ({ h, api, receiver } = env);
});

describe('first attempts and a clock moved back', () => {
  it('deliveries queued before the clock is frozen an hour earlier still go out, in event order, before later ones', async () => {
    // The receiver holds a's delivery unanswered until released: b is queued behind it when the
    // clock moves back, however fast or slow the machine.
    receiver.fallback = 'hang';
    const now = Date.parse((await control(h).get('/clock').expect(200)).body.now as string);
    await control(h)
      .post('/clock/freeze', { at: new Date(now).toISOString() })
      .expect(200);
    const a = await deposit(api);
    await receiver.waitFor(1); // a's delivery is in flight, and held
    const b = await deposit(api);
    // The freeze moves the clock back at once, then answers once due work is done: after the release.
    const earlier = new Date(now - 3_600_000).toISOString();
    const frozen = control(h)
      .post('/clock/freeze', { at: earlier })
      .expect(200)
      .then(() => undefined);
    await until(
      'the clock frozen an hour earlier',
      async () => (await control(h).get('/clock').expect(200)).body.now,
      (at) => at === earlier,
    );
    const c = await deposit(api);
    expect(receiver.received).toHaveLength(1);
    receiver.fallback = 200;
    receiver.release();
    await frozen;
    await control(h).post('/webhooks/idle').expect(200);
    const ids = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(ids).toEqual([a.id, b.id, c.id]);
  });
});
