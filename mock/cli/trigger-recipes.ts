// How `fos-mock trigger` makes each event happen, like `stripe trigger`: it creates what the
// event needs through the service API and moves it through the control API, so the event is
// emitted for the customer and delivered to that customer's subscriptions.
import { randomBytes, randomUUID } from 'node:crypto';
import { RESOURCE_EVENTS } from '../domain/event-catalogue';
import type { EventType } from '../domain/records';
import { UserError } from '../scenarios/errors';
import { describeAnswer, type HttpAnswer, type MockClient } from '../scenarios/http';

/**
 * The catalogue's event types in the order the CLI lists them: what a client does most first,
 * ACCOUNT_CREATED last (it needs a fresh customer).
 */
export const EVENT_TYPES: readonly EventType[] = [
  ...RESOURCE_EVENTS.OPERATION,
  ...RESOURCE_EVENTS.BENEFICIARY,
  ...RESOURCE_EVENTS.ACCOUNT.filter((e) => e !== 'ACCOUNT_CREATED'),
  'ACCOUNT_CREATED',
];
export type TriggerEvent = EventType;

/** Events the service API alone can cause (no control API needed). */
export const WITHOUT_CONTROL: ReadonlySet<string> = new Set(['OPERATION_REQUESTED', 'BENEFICIARY_INSTRUCTION_CREATED']);

const REASONS = {
  paymentNotReceived: { code: 'PAYMENT_NOT_RECEIVED', message: 'Triggered by fos-mock trigger: the PIX charge was not paid.' },
  manualReview: { code: 'MANUAL_REVIEW', message: 'Triggered by fos-mock trigger: held for a compliance review.' },
  beneficiaryRejected: { code: 'BENEFICIARY_REJECTED', message: 'Triggered by fos-mock trigger: the PIX key belongs to another person.' },
  documentRejected: { code: 'DOCUMENT_REJECTED', message: 'Triggered by fos-mock trigger: the document is illegible.' },
};

interface Account {
  id: string;
  currentState: { status: string };
  assets: Array<{ currency: string; status: string }>;
}

/** The customer's side of a trigger: its token, and every call printed as it is made. */
export class Actor {
  constructor(
    readonly client: MockClient,
    readonly token: string,
    readonly control: boolean,
    private readonly log: (line: string) => void,
  ) {}

  static async login(
    client: MockClient,
    credentials: { clientId: string; clientSecret: string },
    control: boolean,
    log: (line: string) => void,
  ): Promise<Actor> {
    const answer = await client.send('POST', '/api/oauth/client/token', { body: credentials });
    if (answer.status !== 200) throw new UserError(`cannot log in as ${credentials.clientId}: the mock answered ${describeAnswer(answer)}`);
    return new Actor(client, (answer.body as { accessToken: string }).accessToken, control, log);
  }

  async api(method: string, path: string, expected: number, body?: unknown): Promise<HttpAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (method !== 'GET' && method !== 'DELETE') headers['x-idempotency-key'] = randomUUID();
    return this.check(`${method} ${path}`, expected, await this.client.send(method, path, { body, headers }));
  }

  async mock(method: string, path: string, expected: number, body?: unknown): Promise<HttpAnswer> {
    return this.check(`${method} /_mock${path}`, expected, await this.client.control(method, path, body));
  }

  say(line: string): void {
    this.log(line);
  }

  private check(call: string, expected: number, answer: HttpAnswer): HttpAnswer {
    const body = answer.body as { id?: string; currentState?: { status?: string } } | undefined;
    const detail = [body?.id, body?.currentState?.status].filter(Boolean).join(' ');
    this.log(`  ${call} → ${answer.status}${detail ? ` (${detail})` : ''}`);
    if (answer.status !== expected) throw new UserError(`${call} answered ${describeAnswer(answer)} (expected ${expected})`);
    return answer;
  }

  async accounts(): Promise<Account[]> {
    return ((await this.api('GET', '/api/accounts?limit=100&sortOrder=ASCENDING', 200)).body as { data: Account[] }).data;
  }
}

export interface Triggered {
  /** What the event is about: `operation <id>`, `account <id>`, ... */
  subject: string;
  /** Said after the calls: why a fresh customer was used, its credentials. */
  notes?: string[];
  /** The client id of the fresh customer the event happened for (it has no subscription yet). */
  freshCustomer?: string;
}

async function fundedAccount(actor: Actor): Promise<string> {
  const accounts = await actor.accounts();
  if (accounts.length === 0) throw new UserError('the customer has no account to make an operation on');
  if (!actor.control) return (accounts.find((a) => a.currentState.status === 'APPROVED') ?? accounts[0]!).id;
  let best = { id: accounts[0]!.id, brl: -1 };
  for (const account of accounts) {
    const balances = (await actor.client.control('GET', `/accounts/${account.id}/balances`)).body as { balances?: Record<string, string> };
    const brl = Number(balances.balances?.BRL ?? 0);
    if (brl > best.brl) best = { id: account.id, brl };
  }
  return best.id;
}

async function deposit(actor: Actor): Promise<string> {
  const accountId = await fundedAccount(actor);
  const quote = (await actor.api('POST', '/v1/quotes', 201, { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' }))
    .body as { id: string };
  const op = (
    await actor.api('POST', '/v1/operations/deposits', 201, { accountId, quoteId: quote.id, fundingInstruction: { rail: 'PIX' } })
  ).body as { id: string };
  return op.id;
}

async function newInstruction(actor: Actor): Promise<{ beneficiaryId: string; instructionId: string }> {
  const list = (await actor.api('GET', '/v1/beneficiaries?limit=1&sortOrder=ASCENDING', 200)).body as { data: Array<{ id: string }> };
  let beneficiaryId = list.data[0]?.id;
  if (!beneficiaryId) {
    const entity = {
      type: 'INDIVIDUAL',
      firstName: 'Maria',
      lastName: 'Souza',
      identificationDocument: { type: 'CPF', value: '52998224725', country: 'BR' },
    };
    beneficiaryId = (
      (await actor.api('POST', '/v1/beneficiaries', 201, { entity, relationshipType: 'THIRD_PARTY', paymentInstructions: [] })).body as {
        id: string;
      }
    ).id;
  }
  const dictKey = `trigger-${randomBytes(4).toString('hex')}@example.com`;
  const beneficiary = (
    await actor.api('POST', `/v1/beneficiaries/${beneficiaryId}/paymentInstructions`, 201, {
      asset: 'BRL',
      address: { rail: 'PIX_KEY', dictKey },
    })
  ).body as {
    paymentInstructions: Array<{ id: string; address: { dictKey: string } }>;
  };
  const instruction = beneficiary.paymentInstructions.find((i) => i.address.dictKey === dictKey);
  if (!instruction) throw new UserError('the new payment instruction is not in the answer');
  return { beneficiaryId, instructionId: instruction.id };
}

/** A fresh customer (POST /_mock/customers): the only way to make accounts, hence ACCOUNT_CREATED. */
async function freshCustomer(
  actor: Actor,
  why: string,
): Promise<{ body: { customerId: string; clientId: string; clientSecret: string; accounts: string[] }; notes: string[] }> {
  actor.say(`  ${why}: making a fresh customer (POST /_mock/customers)`);
  const body = (await actor.mock('POST', '/customers', 201, { name: 'fos-mock trigger' })).body as {
    customerId: string;
    clientId: string;
    clientSecret: string;
    accounts: string[];
  };
  return {
    body,
    notes: [
      `A fresh customer was made: clientId=${body.clientId} clientSecret=${body.clientSecret} (customer ${body.customerId}).`,
      'Its events go to its own subscriptions only: log in with these credentials and subscribe (POST /api/subscriptions) ' +
        'to receive the next ones.',
    ],
  };
}

export async function trigger(event: TriggerEvent, actor: Actor): Promise<Triggered> {
  switch (event) {
    case 'OPERATION_REQUESTED':
      return { subject: `operation ${await deposit(actor)}` };
    case 'OPERATION_COMPLETED': {
      const id = await deposit(actor);
      await actor.mock('POST', `/operations/${id}/settle`, 200);
      return { subject: `operation ${id}` };
    }
    case 'OPERATION_FAILED': {
      const id = await deposit(actor);
      await actor.mock('POST', `/operations/${id}/fail`, 200, { reason: REASONS.paymentNotReceived });
      return { subject: `operation ${id}` };
    }
    case 'OPERATION_ACTION_REQUIRED': {
      const id = await deposit(actor);
      await actor.mock('POST', `/operations/${id}/action-required`, 200, { reason: REASONS.manualReview });
      return { subject: `operation ${id}` };
    }
    case 'BENEFICIARY_INSTRUCTION_CREATED': {
      const { beneficiaryId, instructionId } = await newInstruction(actor);
      return { subject: `payment instruction ${instructionId} of beneficiary ${beneficiaryId}` };
    }
    case 'BENEFICIARY_INSTRUCTION_APPROVED':
    case 'BENEFICIARY_INSTRUCTION_REJECTED':
    case 'BENEFICIARY_INSTRUCTION_ACTION_REQUIRED': {
      const { beneficiaryId, instructionId } = await newInstruction(actor);
      const path = `/beneficiaries/${beneficiaryId}/payment-instructions/${instructionId}`;
      if (event === 'BENEFICIARY_INSTRUCTION_APPROVED') await actor.mock('POST', `${path}/approve`, 200);
      else if (event === 'BENEFICIARY_INSTRUCTION_REJECTED')
        await actor.mock('POST', `${path}/reject`, 200, { reason: REASONS.beneficiaryRejected });
      else await actor.mock('POST', `${path}/require-action`, 200, { reason: REASONS.documentRejected });
      return { subject: `payment instruction ${instructionId} of beneficiary ${beneficiaryId}` };
    }
    case 'ACCOUNT_ACTION_REQUIRED': {
      const accounts = await actor.accounts();
      const editable = accounts.find((a) => a.currentState.status === 'ACTION_REQUIRED');
      const underReview = accounts.find((a) => a.currentState.status === 'UNDER_REVIEW');
      const account = editable ?? underReview;
      if (!account) throw new UserError('the customer has no account in ACTION_REQUIRED or UNDER_REVIEW to ask for action');
      // Review can ask for action only on a submitted account: submit the editable one first.
      if (account === editable) await actor.mock('POST', `/accounts/${account.id}/submit-review`, 200);
      await actor.mock('POST', `/accounts/${account.id}/require-action`, 200, { reason: REASONS.documentRejected });
      return { subject: `account ${account.id}` };
    }
    case 'ACCOUNT_ASSET_ACTIVATED':
    case 'ACCOUNT_ASSET_FAILED': {
      const action = event === 'ACCOUNT_ASSET_ACTIVATED' ? 'activate' : 'fail';
      const own = (await actor.accounts()).flatMap((a) =>
        a.assets.filter((x) => x.status === 'ONBOARDING').map((x) => ({ id: a.id, currency: x.currency })),
      );
      if (own[0]) {
        await actor.mock('POST', `/accounts/${own[0].id}/assets/${own[0].currency}/${action}`, 200);
        return { subject: `${own[0].currency} asset of account ${own[0].id}` };
      }
      // Onboarding ends once per asset: when none is left, only a fresh customer has one.
      const fresh = await freshCustomer(actor, `${event} needs an asset still ONBOARDING and this customer has none left`);
      const login = await Actor.login(
        actor.client,
        { clientId: fresh.body.clientId, clientSecret: fresh.body.clientSecret },
        actor.control,
        (line) => actor.say(line),
      );
      const target = (await login.accounts()).flatMap((a) =>
        a.assets.filter((x) => x.status === 'ONBOARDING').map((x) => ({ id: a.id, currency: x.currency })),
      )[0];
      if (!target) throw new UserError('the fresh customer has no ONBOARDING asset either (check the fixtures)');
      await actor.mock('POST', `/accounts/${target.id}/assets/${target.currency}/${action}`, 200);
      return {
        subject: `${target.currency} asset of account ${target.id} (fresh customer ${fresh.body.clientId})`,
        notes: fresh.notes,
        freshCustomer: fresh.body.clientId,
      };
    }
    case 'ACCOUNT_CREATED': {
      const fresh = await freshCustomer(actor, 'ACCOUNT_CREATED fires when an account is created, which only a fresh customer does');
      return {
        subject: `${fresh.body.accounts.length} accounts of fresh customer ${fresh.body.clientId}`,
        notes: [
          ...fresh.notes.slice(0, 1),
          'Accounts are made only with a customer, so no existing subscription can receive ACCOUNT_CREATED; ' +
            'the new accounts are there to use.',
        ],
        freshCustomer: fresh.body.clientId,
      };
    }
  }
}
