// What only a fos-mock allows, through its control API: the customer's own clock moved, an
// operation settled, failed or flagged, and a fault injected into the customer's next request.
import { parseDuration } from '../domain/duration';
import { Act } from './act';
import { pick, type Model } from './model';
import { observe } from './observe';
import type { RunContext } from './run-context';

export const DURATIONS = ['31s', '5m', '2h'];

export class MoveClock extends Act {
  constructor(readonly by: string) {
    super();
  }
  check(): boolean {
    return true;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const answer = await run.do({ clock: this.by });
    if (answer.status !== 200) return;
    model.clockMs += parseDuration(this.by);
    for (const quote of model.quotes) quote.stale = true;
  }
  toString(): string {
    return `clock(+${this.by})`;
  }
}

export const MOVES = ['settle', 'fail', 'action-required'] as const;

export class MoveOperation extends Act {
  constructor(
    readonly operation: number,
    readonly move: (typeof MOVES)[number],
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.operations.length > 0;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const op = pick(model.operations, this.operation)!;
    const answer = await run.do({ control: `POST /operations/{{${op.name}}}/${this.move}` });
    if (answer.status === 200 && this.move === 'fail') op.failedByControl = true;
    // A move the lifecycle does not allow is refused (409); an allowed one answers the operation.
    if (answer.status === 200) observe(run, op, answer.body, `control ${this.move}`);
  }
  toString(): string {
    return `${this.move}(operation ${this.operation})`;
  }
}

export const FAULT_ROUTES = [
  ['POST', '/v1/quotes'],
  ['POST', '/v1/operations/*'],
  ['GET', '/v1/operations'],
  ['GET', '/v1/operations/*'],
] as const;

export class InjectFault extends Act {
  constructor(
    readonly route: number,
    readonly status: number,
  ) {
    super();
  }
  check(): boolean {
    return true;
  }
  async run(_model: Model, run: RunContext): Promise<void> {
    const [method, path] = FAULT_ROUTES[this.route % FAULT_ROUTES.length]!;
    await run.do({
      control: 'POST /faults',
      body: { method, path, error: { status: this.status }, times: 1, customerId: '{{customer.id}}' },
    });
  }
  toString(): string {
    const [method, path] = FAULT_ROUTES[this.route % FAULT_ROUTES.length]!;
    return `fault(${method} ${path} → ${this.status})`;
  }
}
