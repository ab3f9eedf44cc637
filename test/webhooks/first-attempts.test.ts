// A first attempt is due at once, whatever the mock clock shows: moving the clock back (freezing
// it at an earlier instant) does not hold back deliveries already queued, nor let later events
// overtake them.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Receiver } from '../../mock/receiver/receiver';
import { control, deposit } from '../control/support';
import type { Authed, Harness } from '../http/harness';
import { useSubscribedMock } from '../http/subscribed-mock';

let h: Harness;
let api: Authed;
let receiver: Receiver;

const env = useSubscribedMock({ resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] }, { config: { autoSettleMs: null } });
beforeAll(() => {
  ({ h, api, receiver } = env);
});

describe('first attempts and a clock moved back', () => {
  it('deliveries queued before the clock is frozen an hour earlier still go out, in event order, before later ones', async () => {
    // A slow receiver: b is still queued behind a when the clock moves back.
    receiver.fallback = { status: 200, delayMs: 300 };
    const now = Date.parse((await control(h).get('/clock').expect(200)).body.now as string);
    await control(h)
      .post('/clock/freeze', { at: new Date(now).toISOString() })
      .expect(200);
    const a = await deposit(api);
    const b = await deposit(api);
    await control(h)
      .post('/clock/freeze', { at: new Date(now - 3_600_000).toISOString() })
      .expect(200);
    const c = await deposit(api);
    await control(h).post('/webhooks/idle').expect(200);
    receiver.fallback = 200;
    const ids = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(ids).toEqual([a.id, b.id, c.id]);
  });
});
