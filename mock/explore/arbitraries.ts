// The steps a run is generated from, with their weights: what a target allows decides which are
// in (writes need a fos-mock or --allow-writes; the control API's steps a fos-mock).
import fc from 'fast-check';
import type { Act } from './act';
import { CreateBeneficiary, ChangeSubscription, ForeignId, INVALID, InvalidRequest, Replay, Subscribe } from './acts-calls';
import { DURATIONS, FAULT_ROUTES, InjectFault, MOVES, MoveClock, MoveOperation } from './acts-control';
import { AMOUNTS, CreateQuote, MOCK_AMOUNTS, OperationOnQuote, PAIRS, Transfer } from './acts-money';
import { GetOperation, LISTS, WalkList } from './acts-reads';
import { DefaultOrder, FilteredLogs, MISUSES, QuoteMisuse } from './acts-rules';
import { NewToken, ReadReference } from './acts-service';
import type { ForeignKind } from './run-context';

export interface Allowed {
  writes: boolean;
  control: boolean;
  /** Clock steps: only for a fresh customer with its own clock (never the clock others share). */
  clock: boolean;
  /** Injected faults: on a fos-mock, and not while comparing two targets (a fault's firing is timing, not fidelity). */
  faults: boolean;
  foreign: ForeignKind[];
}

const index = fc.nat({ max: 15 });
const kinds = fc.constantFrom<Array<'deposit' | 'withdrawal' | 'swap'>>('deposit', 'withdrawal', 'swap');

export function actArbitraries(allowed: Allowed): Array<fc.Arbitrary<Act>> {
  const amounts = allowed.control ? [...AMOUNTS, ...MOCK_AMOUNTS] : AMOUNTS;
  const weighted = (weight: number, arbitrary: fc.Arbitrary<Act>) => Array.from({ length: weight }, () => arbitrary);
  const reads: Array<fc.Arbitrary<Act>> = [
    ...weighted(
      2,
      index.map((i) => new GetOperation(i)),
    ),
    ...weighted(
      2,
      fc
        .tuple(fc.constantFrom(...LISTS), fc.constantFrom(1, 2, 3, 100), fc.boolean(), index)
        .map(([list, limit, ascending, sub]) => new WalkList(list, limit, ascending, sub)),
    ),
    ...weighted(
      2,
      fc.constantFrom(...INVALID).map((how) => new InvalidRequest(how, allowed.writes)),
    ),
    fc.constant(new NewToken()),
    fc.constantFrom(1, 2).map((limit) => new DefaultOrder(limit)),
    fc.boolean().map((eventTypes) => new ReadReference(eventTypes)),
  ];
  if (allowed.foreign.length > 0)
    reads.push(
      fc.tuple(fc.constantFrom(...allowed.foreign), fc.boolean()).map(([kind, inBody]) => new ForeignId(kind, inBody, allowed.writes)),
    );
  if (!allowed.writes) return reads;
  const writes: Array<fc.Arbitrary<Act>> = [
    ...weighted(
      4,
      fc
        .tuple(index, fc.nat({ max: PAIRS.length - 1 }), fc.constantFrom(...amounts))
        .map(([a, p, amount]) => new CreateQuote(a, p, amount)),
    ),
    ...weighted(
      4,
      fc.tuple(kinds, index, index).map(([kind, q, b]) => new OperationOnQuote(kind, q, b, false)),
    ),
    ...weighted(
      2,
      fc.tuple(kinds, index).map(([kind, q]) => new OperationOnQuote(kind, q, 0, true)),
    ),
    fc
      .tuple(index, index, fc.constantFrom('BRL', 'USDT'), fc.constantFrom(...AMOUNTS))
      .map(([f, t, asset, amount]) => new Transfer(f, t, asset, amount)),
    ...weighted(
      2,
      fc.tuple(index, fc.boolean()).map(([call, changed]) => new Replay(call, changed)),
    ),
    fc.boolean().map((withInstruction) => new CreateBeneficiary(withInstruction)),
    fc.boolean().map((retry) => new Subscribe(retry)),
    fc.tuple(index, fc.boolean()).map(([s, remove]) => new ChangeSubscription(s, remove)),
    fc.constantFrom(...MISUSES).map((how) => new QuoteMisuse(how, allowed.clock)),
    fc
      .tuple(index, fc.constantFrom<Array<'SUCCESS' | 'FAILED'>>('SUCCESS', 'FAILED'), fc.boolean())
      .map(([s, status, malformed]) => new FilteredLogs(s, status, malformed)),
  ];
  if (!allowed.control) return [...reads, ...writes];
  const control: Array<fc.Arbitrary<Act>> = [
    ...(allowed.clock
      ? weighted(
          2,
          fc.constantFrom(...DURATIONS).map((by) => new MoveClock(by)),
        )
      : []),
    ...weighted(
      2,
      fc.tuple(index, fc.constantFrom(...MOVES)).map(([op, move]) => new MoveOperation(op, move)),
    ),
    ...(allowed.faults
      ? [
          fc
            .tuple(fc.nat({ max: FAULT_ROUTES.length - 1 }), fc.constantFrom(500, 503))
            .map(([route, status]) => new InjectFault(route, status)),
        ]
      : []),
  ];
  return [...reads, ...writes, ...control];
}
