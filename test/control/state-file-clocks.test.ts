// The clocks of a state file: a running clock goes on as if the mock had kept running while it
// was stopped (the file's instant plus the time since it was written); a frozen one stays put.
import { describe, expect, it } from '@jest/globals';
import type { Snapshot } from '../../mock/control/snapshot';
import { movedOn } from '../../mock/control/state-file';

const written: Snapshot = {
  version: 1,
  takenAt: '2026-03-02T10:00:00.000Z',
  clock: { now: '2026-03-02T10:00:00.000Z', frozen: false },
  customerClocks: [
    { customerId: 'a', now: '2026-01-01T00:00:00.000Z', frozen: false },
    { customerId: 'b', now: '2026-01-01T00:00:00.000Z', frozen: true },
  ],
  sequence: 0,
  records: {},
  balances: [],
  idempotency: [],
};

describe('a state file loaded 90 s after it was written', () => {
  it('moves the running mock clock and running customer clocks on by 90 s, and leaves frozen ones where they stood', () => {
    const loaded = movedOn(written, 90_000);
    expect(loaded.clock).toEqual({ now: '2026-03-02T10:01:30.000Z', frozen: false });
    expect(loaded.customerClocks).toEqual([
      { customerId: 'a', now: '2026-01-01T00:01:30.000Z', frozen: false },
      { customerId: 'b', now: '2026-01-01T00:00:00.000Z', frozen: true },
    ]);
    // The rest of the snapshot is the file's.
    expect({ ...loaded, clock: written.clock, customerClocks: written.customerClocks }).toEqual(written);
  });

  it('leaves a frozen mock clock at its instant', () => {
    const frozen = { ...written, clock: { now: written.clock.now, frozen: true } };
    expect(movedOn(frozen, 90_000).clock).toEqual(frozen.clock);
  });
});
