// Calls that check a rule rather than move money: an idempotency key sent again (same request,
// then another body), a request made invalid in one place, another customer's ids, and the
// records around operations (beneficiaries, subscriptions).
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Step } from '../scenarios/types';
import { Act, accepted, remember } from './act';
import { mutating } from './acts-money';
import { nextName, pick, type CallRecord, type Model } from './model';

/** How long an idempotency key is kept: 24 hours of mock time, less a margin for the clock's own steps. */
const KEY_LIFE_MS = 23 * 3_600_000;
import { code, injected, type ForeignKind, type RunContext } from './run-context';

export class Replay extends Act {
  constructor(
    readonly call: number,
    readonly changed: boolean,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.calls.some((c) => this.fits(c, model));
  }
  private fits(call: CallRecord, model: Readonly<Model>): boolean {
    // A key is kept 24 hours of the customer's time (the document's x-assumption): an older one is new again.
    if (model.clockMs - call.atMs >= KEY_LIFE_MS) return false;
    // Another body needs an object body to change.
    return !this.changed || (typeof call.step.body === 'object' && call.step.body !== null);
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const first = pick(
      model.calls.filter((c) => this.fits(c, model)),
      this.call,
    )!;
    const body = this.changed ? changedBody(first.step.body as Record<string, unknown>) : first.step.body;
    const { save: _ignored, ...again } = first.step;
    const answer = await run.do({ ...again, body });
    if (answer.status >= 500 || (answer.body as { code?: unknown } | undefined)?.code === 'INJECTED_FAULT') return;
    const what = `${first.step.call} sent again with the key of step ${first.index}`;
    if (!this.changed) {
      if (answer.status !== first.answer.status || !isDeepStrictEqual(answer.body, first.answer.body))
        run.fail(
          'idempotency.replay',
          `${what} and the same body answered ${answer.status}${code(answer)}, not the first answer (${first.answer.status}) again`,
        );
      // The document's X-Idempotent-Replayed says the answer is a replay.
      if (answer.headers['x-idempotent-replayed'] !== 'true')
        run.fail('idempotency.replay', `${what} and the same body answered without X-Idempotent-Replayed: true`);
    } else if (accepted(answer) || code(answer).trim() !== 'IDEMPOTENCY_KEY_REUSED') {
      run.fail('idempotency.conflict', `${what} and another body answered ${answer.status}${code(answer)}, not 422 IDEMPOTENCY_KEY_REUSED`);
    }
  }
  toString(): string {
    return `replay(call ${this.call}${this.changed ? ', another body' : ''})`;
  }
}

/** The same request with one field changed, still valid (a refusal for its shape would come before the key). */
function changedBody(body: Record<string, unknown>): Record<string, unknown> {
  if ('sourceAmount' in body) return { ...body, sourceAmount: '0.01' };
  if ('amount' in body) return { ...body, amount: '0.01' };
  if ('quoteId' in body) return { ...body, accountId: randomUUID() };
  if ('relationshipType' in body)
    return { ...body, relationshipType: body.relationshipType === 'THIRD_PARTY' ? 'SELF_OWNED' : 'THIRD_PARTY' };
  if ('allowRetry' in body) return { ...body, allowRetry: body.allowRetry !== true };
  return { ...body, url: `${String(body.url)}-changed` };
}

export const INVALID = [
  'wrong-type',
  'missing-field',
  'bad-enum',
  'bad-uuid',
  'no-key',
  'no-token',
  'bad-token',
  'bad-query',
  'bad-cursor',
  'bad-secret',
  'bad-version',
] as const;
export type Invalid = (typeof INVALID)[number];

/** The run's own token with a signature no service made: its claims are the customer's, only the signature is wrong. */
function forged(token: string): string {
  const [header = '', payload = ''] = token.split('.');
  return `${header}.${payload}.${'A'.repeat(43)}`;
}

/** A cursor with its last character changed: what a client that edits cursors sends. */
function tampered(cursor: string): string {
  const last = cursor.slice(-1);
  return `${cursor.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

export class InvalidRequest extends Act {
  constructor(
    readonly how: Invalid,
    readonly writes: boolean,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.accounts.length > 0;
  }
  private step(model: Readonly<Model>, run: RunContext, cursor: string): Step {
    const account = model.accounts[0]!;
    const quote = { accountId: account, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.00' };
    const read: Step = { call: 'GET /v1/operations?limit=2' };
    switch (this.how) {
      case 'wrong-type':
        return this.writes ? mutating('POST /v1/quotes', { ...quote, sourceAmount: 1 }) : { call: 'GET /v1/operations?limit=two' };
      case 'missing-field':
        return this.writes ? mutating('POST /v1/quotes', { sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.00' }) : read;
      case 'bad-enum':
        return this.writes
          ? mutating('POST /v1/beneficiaries', { entity: { type: 'ROBOT' }, relationshipType: 'FRIEND' })
          : { call: 'GET /v1/operations?sortOrder=SIDEWAYS' };
      case 'bad-uuid':
        return this.writes ? mutating('POST /v1/quotes', { ...quote, accountId: 'not-a-uuid' }) : { call: 'GET /api/accounts/not-a-uuid' };
      case 'no-key':
        // false: no key at all (a step without one gets a fresh key from the scenario runner).
        return this.writes ? { call: 'POST /v1/quotes', body: quote, headers: { 'x-idempotency-key': false } } : read;
      case 'no-token':
        return { ...read, auth: false };
      case 'bad-token':
        return { ...read, headers: { authorization: `Bearer ${forged(run.session.token)}` } };
      case 'bad-secret':
        return {
          call: 'POST /api/oauth/client/token',
          auth: false,
          body: { clientId: '{{customer.clientId}}', clientSecret: 'not-the-secret-of-this-client' },
        };
      case 'bad-cursor':
        return { call: `GET /api/accounts?limit=1&cursor=${encodeURIComponent(cursor)}&direction=NEXT` };
      case 'bad-query':
        return { call: 'GET /v1/operations?limit=0' };
      case 'bad-version':
        return { ...read, headers: { 'x-service-version': '999' } };
    }
  }
  async run(model: Model, run: RunContext): Promise<void> {
    let cursor = 'bm90LWEtY3Vyc29y.dGFtcGVyZWQ';
    if (this.how === 'bad-cursor') {
      // A real cursor first, then the same one altered: it must be refused, never read.
      const page = await run.do({ call: 'GET /api/accounts?limit=1' });
      const next = (page.body as { meta?: { nextCursor?: unknown } } | undefined)?.meta?.nextCursor;
      if (typeof next === 'string') cursor = tampered(next);
    }
    const step = this.step(model, run, cursor);
    const answer = await run.do(step);
    const token = this.how === 'no-token' || this.how === 'bad-token' || this.how === 'bad-secret';
    const refused = token ? answer.status === 401 : answer.status >= 400 && answer.status < 500;
    // A missing field or key is only invalid on a write; on a target without --allow-writes the read stands in.
    const invalid = this.writes || !['missing-field', 'no-key'].includes(this.how);
    // A refusal of the request's shape keeps no key: the same key with the request made right is served.
    const quoteBody = this.writes && ['wrong-type', 'missing-field', 'bad-uuid'].includes(this.how);
    if (quoteBody && refused && typeof step.headers?.['x-idempotency-key'] === 'string') {
      const account = model.accounts[0]!;
      const right = await run.do({
        call: 'POST /v1/quotes',
        body: { accountId: account, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.00' },
        headers: { 'x-idempotency-key': step.headers['x-idempotency-key'] },
      });
      if (!accepted(right) && right.status < 500 && !injected(right))
        run.fail(
          'refusal.invalid-request',
          `the key of a request refused for ${this.how} was kept: the request made right answered ${right.status}${code(right)}`,
        );
    }
    if (invalid && !refused && answer.status < 500)
      run.fail(
        'refusal.invalid-request',
        `${step.call} with ${this.how} answered ${answer.status}${code(answer)}, not ${token ? '401' : 'a 4xx'}`,
      );
  }
  toString(): string {
    return `invalid(${this.how})`;
  }
}

const FOREIGN_PATHS: Record<ForeignKind, string> = {
  account: '/api/accounts/',
  quote: '/v1/quotes/',
  operation: '/v1/operations/',
  beneficiary: '/v1/beneficiaries/',
  subscription: '/v1/subscriptions/',
  key: '',
};

/** Another customer's id, read directly, or named in a quote (its account) or a deposit (its quote). */
export class ForeignId extends Act {
  constructor(
    readonly kind: ForeignKind,
    readonly inBody: boolean,
    readonly writes: boolean,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.accounts.length > 0;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const id = run.foreign[this.kind];
    if (id === undefined) return;
    if (this.kind === 'key') return this.sameKey(model, run, id);
    let step: Step = { call: `GET ${FOREIGN_PATHS[this.kind]}${id}` };
    if (this.inBody && this.writes && this.kind === 'account')
      step = mutating('POST /v1/quotes', { accountId: id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
    if (this.inBody && this.writes && this.kind === 'quote')
      step = mutating('POST /v1/operations/deposits', { accountId: model.accounts[0], quoteId: id, fundingInstruction: { rail: 'PIX' } });
    const answer = await run.do(step);
    const ok = step.call!.startsWith('GET') ? answer.status === 404 : answer.status >= 400 && answer.status < 500;
    if (!ok && answer.status < 500)
      run.fail(
        'tenancy.isolation',
        `${step.call} naming another customer's ${this.kind} answered ${answer.status}${code(answer)}, ` +
          `not ${step.call!.startsWith('GET') ? '404' : 'a 4xx'}`,
      );
  }
  /** The key another customer used, sent with a request of this one: answered as its own, never as a replay. */
  private async sameKey(model: Model, run: RunContext, key: string): Promise<void> {
    if (!this.writes || model.foreignKeyUsed) return;
    model.foreignKeyUsed = true;
    const body = { accountId: model.accounts[0], sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' };
    const answer = await run.do({ call: 'POST /v1/quotes', body, headers: { 'x-idempotency-key': key } });
    if (answer.status >= 500 || (answer.body as { code?: unknown } | undefined)?.code === 'INJECTED_FAULT') return;
    const accountId = (answer.body as { accountId?: unknown } | undefined)?.accountId;
    // A valid quote of this customer's own: refused as a reused key, or replayed, it met the other customer's key.
    if (!accepted(answer) || answer.headers['x-idempotent-replayed'] === 'true' || accountId !== run.value(String(model.accounts[0])))
      run.fail(
        'tenancy.isolation',
        `POST /v1/quotes with another customer's idempotency key answered ${answer.status}${code(answer)}` +
          `${answer.headers['x-idempotent-replayed'] === 'true' ? ' as a replay' : ''} for account ${String(accountId)}, ` +
          `not this customer's own quote (a key shared across customers)`,
      );
  }

  toString(): string {
    return `foreign(${this.kind}${this.inBody ? ' in a body' : ''})`;
  }
}

const PERSON = {
  type: 'INDIVIDUAL',
  firstName: 'Explore',
  lastName: 'Run',
  identificationDocument: { type: 'CPF', value: '52998224725', country: 'BR' },
  birthDate: '1990-04-12',
  address: {
    addressLine1: 'Av. Paulista, 1000',
    addressLine2: null,
    city: 'Sao Paulo',
    state: 'SP',
    country: 'BR',
    postalCode: '01310-100',
  },
};

export class CreateBeneficiary extends Act {
  constructor(readonly withInstruction: boolean) {
    super();
  }
  check(): boolean {
    return true;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const name = nextName(model, 'b');
    const instruction = { asset: 'BRL', address: { rail: 'PIX_KEY', dictKey: `${name}@example.com` } };
    const body = {
      entity: PERSON,
      relationshipType: 'THIRD_PARTY',
      ...(this.withInstruction ? { paymentInstructions: [instruction] } : {}),
    };
    const step = { ...mutating('POST /v1/beneficiaries', body), save: { [name]: 'body.id' } };
    const answer = await run.do(step);
    remember(model, run, step, answer);
    const instructions = (answer.body as { paymentInstructions?: unknown[] } | undefined)?.paymentInstructions;
    if (accepted(answer) && this.withInstruction && (!Array.isArray(instructions) || instructions.length !== 1))
      run.fail(
        'records.read-back',
        `a beneficiary created with 1 payment instruction answered ${Array.isArray(instructions) ? instructions.length : 'no'} ` +
          'instructions',
      );
    if (accepted(answer) && name in run.saved) {
      model.madeBeneficiaries.push(name);
      model.beneficiaries.push(`{{${name}}}`);
    }
  }
  toString(): string {
    return `beneficiary(${this.withInstruction ? 'with an instruction' : 'bare'})`;
  }
}

export class Subscribe extends Act {
  constructor(readonly allowRetry: boolean) {
    super();
  }
  check(): boolean {
    return true;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const name = nextName(model, 's');
    const body = {
      url: `https://hooks.example.com/explore/${name}`,
      resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }],
      allowRetry: this.allowRetry,
    };
    const step = { ...mutating('POST /api/subscriptions', body), save: { [name]: 'body.id' } };
    const answer = await run.do(step);
    remember(model, run, step, answer);
    if (accepted(answer) && name in run.saved) model.subscriptions.push(name);
  }
  toString(): string {
    return `subscribe(allowRetry ${this.allowRetry})`;
  }
}

/** Changes or deletes a subscription the run made; a deleted one must stay gone. */
export class ChangeSubscription extends Act {
  constructor(
    readonly subscription: number,
    readonly remove: boolean,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.subscriptions.length > 0;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const name = pick(model.subscriptions, this.subscription)!;
    if (!this.remove) {
      const step = mutating(`PATCH /v1/subscriptions/{{${name}}}`, { allowRetry: true });
      remember(model, run, step, await run.do(step));
      return;
    }
    const answer = await run.do({ call: `DELETE /v1/subscriptions/{{${name}}}` });
    if (!accepted(answer)) return;
    model.subscriptions = model.subscriptions.filter((s) => s !== name);
    const after = await run.do({ call: `GET /v1/subscriptions/{{${name}}}` });
    if (after.status !== 404 && after.status < 500 && (after.body as { code?: unknown })?.code !== 'INJECTED_FAULT')
      run.fail('records.read-back', `${name} was deleted, then GET answered ${after.status}${code(after)}, not 404`);
  }
  toString(): string {
    return `${this.remove ? 'delete' : 'update'}(subscription ${this.subscription})`;
  }
}
