// The mock clock, for the header and for "in 30 s" next to due times: read from GET /_mock/clock
// again whenever the live stream says `clock`, and, while it runs, carried forward locally once a
// second (a local timer, not a poll: the mock's clock runs at the wall clock's pace).
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { useResource } from './live';
import type { ClockState } from './types';

interface MockClock {
  state?: ClockState;
  /** The mock's current instant (ms since the epoch), undefined until first read. */
  now?: number;
  error?: string;
}

const ClockContext = createContext<MockClock>({});

export function ClockProvider({ children }: { children: ComponentChildren }) {
  const clock = useResource<ClockState>('/_mock/clock', ['clock']);
  // When this reading arrived: taken while rendering it, so the two never disagree.
  const readAt = useMemo(() => Date.now(), [clock.data]);
  const [tick, setTick] = useState(() => Date.now());

  useEffect(() => {
    if (!clock.data || clock.data.frozen) return undefined;
    const timer = setInterval(() => setTick(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [clock.data]);

  let now: number | undefined;
  if (clock.data) {
    const base = new Date(clock.data.now).getTime();
    now = clock.data.frozen ? base : base + Math.max(0, tick - readAt);
  }
  return <ClockContext.Provider value={{ state: clock.data, now, error: clock.error }}>{children}</ClockContext.Provider>;
}

export const useMockClock = () => useContext(ClockContext);
