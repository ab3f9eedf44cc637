// Operations: deposit, withdrawal, swap and transfer creation with the seed's quote rules, and
// their settlement (the Operation schema's x-assumption): balances per account and asset, a short balance
// fails the operation with INSUFFICIENT_BALANCE, only confirmed rail transactions are recorded.
import { ServiceError } from '../errors/catalogue';
import { amount, atScale, fitsScale, isPositive, scaleOf } from '../domain/money';
import { depositSettlesAtOnce, withdrawalForcedShort } from '../domain/magic-values';
import { buildOperation } from '../domain/operations/build';
import { settlementPlan } from '../domain/operations/settlement';
import type { Step } from '../domain/lifecycle';
import { operationCreatedEvent, stepOperation, type OperationStatus, type Reason } from '../domain/operations/state-machine';
import { readPage, type PageParams } from '../domain/pagination/page';
import { buildDepositBrCode } from '../domain/pix';
import { assertQuoteUsable } from '../domain/quotes';
import type { AccountRecord, EventType, Operation, QuoteRecord, Schemas } from '../domain/records';
import type { DomainEvent } from '../events/event-bus';
import { resourceEvent } from '../events/resource-event';
import type { ClaimedJob, RefusedBalance } from '../store';
import type { Deps } from './deps';
import { ownAccount, ownBeneficiary, ownOperation } from './ownership';
import { assertAssetsEnabled, type QuoteService } from './quote-service';

type DepositCreate = Schemas['DepositCreate'];
type WithdrawalCreate = Schemas['WithdrawalCreate'];
type SwapCreate = Schemas['SwapCreate'];
type TransferCreate = Schemas['TransferCreate'];

/** How long the PIX QR code of a deposit can be paid (ours: one hour of mock time). */
const FUNDING_WINDOW_MS = 60 * 60 * 1000;

interface AutoSettleJob {
  customerId: string;
  operationId: string;
}

const AUTO_SETTLE = 'auto-settle';

/** The job group of a customer's auto-settlements: one at a time, in due order. */
export function settlementGroup(customerId: string): string {
  return `settle:${customerId}`;
}

export class OperationService {
  constructor(
    private readonly deps: Deps,
    private readonly quotes: QuoteService,
  ) {
    deps.scheduler.handle(AUTO_SETTLE, (job) => this.autoSettle(job));
  }

  list(customerId: string, params: PageParams) {
    const { store, codec } = this.deps;
    return readPage(
      codec,
      `operation:${customerId}`,
      params,
      (q) => store.page('operation', { scope: customerId, ...q }),
      (r) => r,
    );
  }

  get(customerId: string, operationId: string): Promise<Operation> {
    return ownOperation(this.deps.store, customerId, operationId);
  }

  async createDeposit(customerId: string, body: DepositCreate): Promise<Operation> {
    const account = await ownAccount(this.deps.store, customerId, body.accountId, 'accountId');
    const quote = await this.usableQuote(customerId, body.accountId, body.quoteId);
    const id = this.deps.newId();
    const payer = body.payer;
    const fundingInstruction = {
      rail: body.fundingInstruction.rail,
      payload: buildDepositBrCode({
        operationId: id,
        merchantName: ownerName(account),
        // A city with nothing a BR Code can write gets the BR Code's own fallback (buildDepositBrCode).
        merchantCity: account.account.owner.address.city,
      }),
      expiresAt: new Date((await this.deps.clocks.clockOf(customerId)).now() + FUNDING_WINDOW_MS).toISOString(),
    };
    const intent = payer ? { type: 'DEPOSIT' as const, fundingInstruction, payer } : { type: 'DEPOSIT' as const, fundingInstruction };
    return this.open(id, customerId, account, quote, intent);
  }

  async createWithdrawal(customerId: string, body: WithdrawalCreate): Promise<Operation> {
    const account = await ownAccount(this.deps.store, customerId, body.accountId, 'accountId');
    const beneficiary = await ownBeneficiary(this.deps.store, customerId, body.beneficiary.id, 'beneficiary.id');
    const quote = await this.usableQuote(customerId, body.accountId, body.quoteId);
    // The payout goes to an instruction for the asset the beneficiary receives (the quote's target).
    const instruction = beneficiary.paymentInstructions.find(
      (pi) => pi.asset === quote.targetAsset && ['CREATED', 'APPROVED'].includes(String(pi.currentState.status ?? 'APPROVED')),
    );
    if (!instruction) {
      throw new ServiceError('VALIDATION_ERROR', {
        fields: [{ field: 'body.beneficiary.id', message: `beneficiary has no usable ${quote.targetAsset} payment instruction` }],
      });
    }
    const intent = { type: 'WITHDRAWAL' as const, beneficiary: { id: beneficiary.id, paymentInstructionId: instruction.id } };
    return this.open(this.deps.newId(), customerId, account, quote, intent);
  }

  async createSwap(customerId: string, body: SwapCreate): Promise<Operation> {
    const account = await ownAccount(this.deps.store, customerId, body.accountId, 'accountId');
    const quote = await this.usableQuote(customerId, body.accountId, body.quoteId);
    if (quote.sourceAsset === quote.targetAsset) {
      throw new ServiceError('VALIDATION_ERROR', {
        fields: [{ field: 'body.quoteId', message: 'a swap needs a quote between two different assets' }],
      });
    }
    return this.open(this.deps.newId(), customerId, account, quote, { type: 'SWAP' as const });
  }

  async createTransfer(customerId: string, body: TransferCreate): Promise<Operation> {
    const { store, reference } = this.deps;
    const account = await ownAccount(store, customerId, body.accountId, 'accountId');
    const target = await ownAccount(store, customerId, body.targetAccountId, 'targetAccountId');
    if (target.account.id === account.account.id) {
      throw new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'body.targetAccountId', message: 'must differ from accountId' }] });
    }
    assertAssetsEnabled(account.account, [body.asset]);
    assertAssetsEnabled(target.account, [body.asset]);
    const scale = scaleOf(body.asset, reference.scales);
    if (!isPositive(body.amount)) throw invalidAmount('must be greater than zero');
    if (!fitsScale(body.amount, scale)) throw invalidAmount(`has more than ${scale} decimal places`);
    // Seed: "a transfer takes no quoteId; a 1:1 quote is generated internally".
    const quote = await this.quotes.make(
      customerId,
      account.account.id,
      { sourceAsset: body.asset, targetAsset: body.asset, sourceAmount: body.amount },
      true,
    );
    const intent = { type: 'TRANSFER' as const, targetAccount: { id: target.account.id, owner: ownerName(target) } };
    return this.open(this.deps.newId(), customerId, account, quote, intent);
  }

  private async usableQuote(customerId: string, accountId: string, quoteId: string): Promise<QuoteRecord> {
    // Expired or not by the customer's clock (its own, when it has one).
    const now = (await this.deps.clocks.clockOf(customerId)).now();
    return assertQuoteUsable(await this.deps.store.get('quote', quoteId), customerId, accountId, now);
  }

  /** Records the operation consuming the quote (atomically: of concurrent callers exactly one wins). */
  private async open(
    id: string,
    customerId: string,
    account: AccountRecord,
    quote: QuoteRecord,
    intent: Operation['intent'],
  ): Promise<Operation> {
    const { store, clocks, reference } = this.deps;
    const clock = await clocks.clockOf(customerId);
    const operation = buildOperation({
      id,
      customerId,
      accountId: account.account.id,
      sourceAmount: amount(quote.sourceAmount, quote.sourceAsset, reference.scales),
      targetAmount: amount(quote.targetAmount, quote.targetAsset, reference.scales),
      intent,
      quote: { id: quote.id, rate: quote.rate, expiresAt: quote.expiresAt },
      accountTags: account.account.tags,
      at: clock.nowIso(),
    });
    // The auto-settlement job before the operation: a replica that dies (or loses Redis) after
    // storing it cannot leave it without its job. A job whose operation was not stored does
    // nothing. With no delay it would be due before the operation exists: scheduled after.
    const settlesAtOnce = depositSettlesAtOnce(operation);
    const jobFirst = !settlesAtOnce && (this.deps.config.autoSettleMs ?? 0) > 0;
    if (jobFirst) await this.scheduleAutoSettle(operation);
    // One atomic step: the operation stored with its event (the outbox) and the quote consumed by it, or none of them.
    const events = this.deps.outbox.entries(...eventsOf(operationCreatedEvent(operation), operation));
    if (!(await store.insertConsumingQuote(quote.id, 'operation', customerId, id, operation, events)))
      throw new ServiceError('QUOTE_ALREADY_CONSUMED');
    await this.deps.outbox.publish(events);
    // Magic value 777.77: the deposit is paid at once (README "Control API, clock, faults").
    if (settlesAtOnce) return this.settle(customerId, id);
    if (!jobFirst) await this.scheduleAutoSettle(operation);
    return operation;
  }

  /**
   * The auto-settlement job of a REQUESTED operation (AUTO_SETTLE_MS after its creation; a
   * snapshot import schedules it again for the operations it restores). In the group of the
   * operation's customer: that customer's settlements run one at a time, in due order.
   */
  async scheduleAutoSettle(operation: Operation): Promise<void> {
    const delay = this.deps.config.autoSettleMs;
    if (delay === null || operation.currentState.status !== 'REQUESTED') return;
    const data: AutoSettleJob = { customerId: operation.customer.id, operationId: operation.id };
    const dueAt = Date.parse(operation.createdAt) + delay;
    // On the customer's clock: a customer with its own has its settlements in its own queue.
    const scheduler = await this.deps.clocks.schedulerOf(data.customerId);
    await scheduler.schedule({ kind: AUTO_SETTLE, group: settlementGroup(data.customerId), dueAt, data });
  }

  /**
   * The auto-settlement job: settles the operation if it is still REQUESTED; a settled one changes
   * nothing and emits nothing. Run again after its replica died mid-way, it finds the operation
   * settled or not: settlement and its event are one write (the outbox), so neither is lost.
   */
  private async autoSettle(job: ClaimedJob): Promise<undefined> {
    const { customerId, operationId } = job.data as AutoSettleJob;
    const current = await this.deps.store.get('operation', operationId);
    if (current?.currentState.status !== 'REQUESTED') return undefined;
    try {
      await this.settle(customerId, operationId);
    } catch (error) {
      // Settled or moved through the control API at the same moment, on any replica: nothing to do.
      if (!(error instanceof ServiceError && error.code === 'INVALID_STATE_TRANSITION')) throw error;
    }
    return undefined;
  }

  /**
   * Settles a REQUESTED (or ACTION_REQUIRED) operation: debits first, all or nothing; a short
   * balance fails it with INSUFFICIENT_BALANCE; otherwise credits follow and it is COMPLETED.
   * The balance moves and the new state are one atomic step of the store, so of two replicas
   * settling the same operation at once exactly one moves the money; the other finds it settled.
   * Its event is written in the same step (the outbox).
   */
  async settle(customerId: string, operationId: string): Promise<Operation> {
    const { store, clocks, newId } = this.deps;
    const operation = await ownOperation(store, customerId, operationId);
    const plan = settlementPlan(operation);
    const at = (await clocks.clockOf(customerId)).nowIso();
    const settleable = (current: Operation) => assertSettleable(current, 'COMPLETED');
    // Magic value 666.66: the first debit is refused as if the balance were short.
    const first = plan.debits[0];
    if (withdrawalForcedShort(operation) && first) {
      return this.fail(settleable(operation), first.asset, await store.getBalance(first.accountId, first.asset));
    }
    const transactions = plan.transactions.map((t) => ({
      id: newId(),
      rail: t.rail,
      direction: t.direction,
      amount: t.amount,
      status: 'CONFIRMED' as const,
      confirmedAt: at,
    }));
    const complete = this.deps.outbox.update((current: Operation) =>
      eventful(stepOperation(settleable(current), 'COMPLETED', at, { transactions })),
    );
    const moves = [...plan.debits, ...plan.credits];
    const outcome = await store.updateWithBalances('operation', operationId, complete.change, moves, complete.of);
    if (!outcome) throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'operation', id: operationId });
    if ('short' in outcome) return this.fail(operation, outcome.short.asset, outcome.short.balance);
    if ('over' in outcome) return this.failOver(operation, outcome.over);
    await this.deps.outbox.publish(complete.entries());
    return outcome.record;
  }

  private fail(operation: Operation, asset: string, balance: string): Promise<Operation> {
    const reason = {
      code: 'INSUFFICIENT_BALANCE',
      message: `The ${asset} balance is too low for this operation.`,
      details: { asset, balance: this.shown(asset, balance) },
    };
    // stepOperation refuses to fail an operation that has ended (the same INVALID_STATE_TRANSITION as assertSettleable).
    return this.transition(operation, 'FAILED', { reason });
  }

  /** A credit that would take a balance to 10^20 or more, which no amount of the document can show (BALANCE_CEILING). */
  private failOver(operation: Operation, over: RefusedBalance): Promise<Operation> {
    const reason = {
      code: 'BALANCE_LIMIT_EXCEEDED',
      message: `The ${over.asset} balance would reach 20 integer digits, more than the API can express.`,
      details: { accountId: over.accountId, asset: over.asset, balance: this.shown(over.asset, over.balance) },
    };
    return this.transition(operation, 'FAILED', { reason });
  }

  /** A stored balance as the API shows amounts: at its asset's scale (`25000.00`, not `25000`). */
  private shown(asset: string, balance: string): string {
    return atScale(balance, scaleOf(asset, this.deps.reference.scales));
  }

  /** Fails or flags an operation (control API), or returns a flagged one to processing. */
  async move(customerId: string, operationId: string, to: Exclude<OperationStatus, 'COMPLETED'>, reason?: Reason): Promise<Operation> {
    const operation = await ownOperation(this.deps.store, customerId, operationId);
    return this.transition(operation, to, { reason });
  }

  /** One atomic step from the stored state, with its event (stepOperation refuses a transition the lifecycle does not list). */
  private async transition(operation: Operation, to: OperationStatus, extra: Parameters<typeof stepOperation>[3]): Promise<Operation> {
    const at = (await this.deps.clocks.clockOf(operation.customer.id)).nowIso();
    const move = this.deps.outbox.update((current: Operation) => eventful(stepOperation(current, to, at, extra)));
    const moved = await this.deps.store.update('operation', operation.id, move.change, move.of);
    await this.deps.outbox.publish(move.entries());
    return moved as Operation;
  }
}

/** The event the lifecycle names for the operation's last change (none when it names none), at the moment of its state. */
function eventsOf(eventType: EventType | null, operation: Operation): DomainEvent[] {
  if (!eventType) return [];
  return [resourceEvent('OPERATION', eventType, operation, operation.customer.id, operation.currentState.createdAt)];
}

/** A transition made, with the event it emits. */
function eventful(step: Step<Operation>): { next: Operation; events: DomainEvent[] } {
  return { next: step.next, events: eventsOf(step.event, step.next) };
}

/** Only a REQUESTED or ACTION_REQUIRED operation can be settled (either way it ends). */
function assertSettleable(operation: Operation, to: OperationStatus): Operation {
  const status = operation.currentState.status as OperationStatus;
  if (status !== 'REQUESTED' && status !== 'ACTION_REQUIRED') {
    throw new ServiceError('INVALID_STATE_TRANSITION', { from: status, to }, `An operation in ${status} cannot become ${to}.`);
  }
  return operation;
}

function ownerName(record: AccountRecord): string {
  const owner = record.account.owner;
  return owner.type === 'COMPANY' ? owner.legalName : `${owner.firstName} ${owner.lastName}`;
}

function invalidAmount(message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'body.amount', message }] });
}
