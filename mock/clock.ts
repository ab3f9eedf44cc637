// The mock clock, injected everywhere time matters (quote expiry, token expiry, idempotency
// keys, auto-settlement, webhook retries) so tests and QA can move time. Domain code never
// calls Date.now(); it asks the clock.
export interface Clock {
  now(): number;
  nowIso(): string;
}

export interface ControllableClock extends Clock {
  advance(ms: number): void;
  /** Stops time at the given instant (or where it is now). */
  freeze(at?: number): void;
  /** Lets time run again from where it stands. */
  unfreeze(): void;
  readonly frozen: boolean;
  /** Called after every jump of the clock, so schedulers can run what fell due. */
  onJump(listener: () => void): void;
  /** The clock as data (what replicas share): mock time is real time + offset, or frozenAt while frozen. */
  state(): ClockState;
  /** Takes another replica's clock; a change counts as a jump. */
  adopt(state: ClockState): void;
}

export interface ClockState {
  offset: number;
  frozenAt: number | null;
}

export function createClock(options: { start?: number; frozen?: boolean; realNow?: () => number } = {}): ControllableClock {
  const realNow = options.realNow ?? Date.now;
  // mock time = real time + offset while running; a fixed instant while frozen.
  let offset = options.start === undefined ? 0 : options.start - realNow();
  let frozenAt: number | undefined = options.frozen ? (options.start ?? realNow()) : undefined;
  const listeners: Array<() => void> = [];
  const jumped = () => listeners.forEach((listener) => listener());
  const clock: ControllableClock = {
    now: () => frozenAt ?? realNow() + offset,
    nowIso: () => new Date(clock.now()).toISOString(),
    advance(ms) {
      if (frozenAt !== undefined) frozenAt += ms;
      else offset += ms;
      jumped();
    },
    freeze(at) {
      frozenAt = at ?? clock.now();
      jumped();
    },
    unfreeze() {
      if (frozenAt === undefined) return;
      offset = frozenAt - realNow();
      frozenAt = undefined;
      // The scheduler set no timer while frozen: let it arm one now.
      jumped();
    },
    get frozen() {
      return frozenAt !== undefined;
    },
    onJump(listener) {
      listeners.push(listener);
    },
    state: () => ({ offset, frozenAt: frozenAt ?? null }),
    adopt(state) {
      if (state.offset === offset && (state.frozenAt ?? undefined) === frozenAt) return;
      offset = state.offset;
      frozenAt = state.frozenAt ?? undefined;
      jumped();
    },
  };
  return clock;
}

// A clock as data, moved without a clock object: a customer's own clock is kept in the store
// (so replicas agree) and changed there in one atomic step, then taken by each replica's mirror.
export const stateNow = (state: ClockState, realNow = Date.now()): number => state.frozenAt ?? realNow + state.offset;

/** A clock that starts at `start` (epoch ms), frozen there or running from there. */
export function startState(start: number, frozen: boolean, realNow = Date.now()): ClockState {
  return { offset: start - realNow, frozenAt: frozen ? start : null };
}

export function advancedState(state: ClockState, ms: number): ClockState {
  return state.frozenAt === null ? { offset: state.offset + ms, frozenAt: null } : { offset: state.offset, frozenAt: state.frozenAt + ms };
}

export function frozenState(state: ClockState, at?: number, realNow = Date.now()): ClockState {
  return { offset: state.offset, frozenAt: at ?? stateNow(state, realNow) };
}

export function runningState(state: ClockState, realNow = Date.now()): ClockState {
  return state.frozenAt === null ? state : { offset: state.frozenAt - realNow, frozenAt: null };
}
