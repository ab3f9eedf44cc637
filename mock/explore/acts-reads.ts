// Reads: an operation the run made (its status checked against its lifecycle), and a list walked
// to its end with its cursors.
import { Act } from './act';
import { pick, type Model } from './model';
import { observe } from './observe';
import { checkMembers, walk } from './pages';
import { injected, type RunContext } from './run-context';

export class GetOperation extends Act {
  constructor(readonly operation: number) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.operations.length > 0;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const op = pick(model.operations, this.operation)!;
    const answer = await run.do({ call: `GET /v1/operations/{{${op.name}}}` });
    if (injected(answer)) return;
    if (answer.status !== 200) run.fail('records.read-back', `GET of ${op.name}, which the run made, answered ${answer.status}`);
    observe(run, op, answer.body, `GET /v1/operations/{{${op.name}}}`);
  }
  toString(): string {
    return `get(operation ${this.operation})`;
  }
}

export const LISTS = ['operations', 'accounts', 'beneficiaries', 'subscriptions', 'logs'] as const;
export type ListName = (typeof LISTS)[number];

export class WalkList extends Act {
  constructor(
    readonly list: ListName,
    readonly limit: number,
    readonly ascending: boolean,
    readonly subscription: number,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return this.list !== 'logs' || model.subscriptions.length > 0;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const sub = this.list === 'logs' ? pick(model.subscriptions, this.subscription) : undefined;
    const path = {
      operations: '/v1/operations',
      accounts: '/api/accounts',
      beneficiaries: '/v1/beneficiaries',
      subscriptions: '/v1/subscriptions',
      logs: `/v1/subscriptions/{{${sub}}}/executionLogs`,
    }[this.list];
    const walked = await walk(run, path, this.limit, this.ascending ? 'ASCENDING' : 'DESCENDING');
    const names = {
      operations: model.operations.map((o) => o.name),
      accounts: [],
      beneficiaries: model.madeBeneficiaries,
      subscriptions: model.subscriptions,
      logs: [],
    }[this.list];
    const known = names.map((n) => run.value(`{{${n}}}`)).filter((id): id is string => typeof id === 'string');
    if (this.list === 'accounts') known.push(...run.session.customer.accounts);
    const foreignKind = {
      operations: 'operation',
      accounts: 'account',
      beneficiaries: 'beneficiary',
      subscriptions: 'subscription',
      logs: undefined,
    }[this.list];
    const foreign = foreignKind ? [run.foreign[foreignKind as 'account']].filter((id): id is string => id !== undefined) : [];
    checkMembers(run, path, walked, known, foreign);
    // Statuses seen in the list move operations along their lifecycles too.
    if (this.list === 'operations')
      for (const op of model.operations) {
        const record = walked.records?.find((r) => r.id === run.value(`{{${op.name}}}`));
        if (record) observe(run, op, record, `GET /v1/operations (walked)`);
      }
  }
  toString(): string {
    return `walk(${this.list}, limit ${this.limit}, ${this.ascending ? 'ASCENDING' : 'DESCENDING'})`;
  }
}
