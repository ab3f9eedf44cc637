// Operations for the scaling benchmark, stored as the create path stores them, and inserted
// straight through the Store interface (a million creates over HTTP would take minutes, this
// takes about a minute). Per operation, as a default mock keeps it after the create and its
// auto-settlement (AUTO_SETTLE_MS, 5 s by default):
// - its quote: made by POST /v1/quotes for a deposit, withdrawal or swap (with that request's
//   idempotency entry and answer), made internally for a transfer (QuoteService.make); consumed
//   by the operation (store.insertConsumingQuote);
// - the operation (buildOperation over the priced quote, the deposit's BR Code, the withdrawal's
//   instruction, the transfer's target owner), and the create's idempotency entry with its answer;
// - settled: COMPLETED with its confirmed transactions (moveOperation, settlementPlan);
// - its timeline: one record with each state it entered, REQUESTED and COMPLETED
//   (mock/services/operation-timeline.ts).
// Every record gets its own ids, times and amount strings, as real creates do, so the memory
// measured per operation is honest.
import { randomUUID } from 'node:crypto';
import { amount } from '../../mock/domain/money';
import { buildOperation } from '../../mock/domain/operations/build';
import { settlementPlan } from '../../mock/domain/operations/settlement';
import { moveOperation } from '../../mock/domain/operations/state-machine';
import { buildDepositBrCode, FALLBACK_MERCHANT_CITY } from '../../mock/domain/pix';
import { priceQuote } from '../../mock/domain/quotes';
import { fingerprint } from '../../mock/http/idempotency';
import { appendTimelineEntry } from '../../mock/services/operation-timeline';
import type { AccountRecord, Operation, Quote, QuoteRecord, TimelineEntry } from '../../mock/domain/records';
import type { ReferenceData } from '../../mock/services/deps';
import type { Store } from '../../mock/store';

const FUNDING_WINDOW_MS = 60 * 60 * 1000;
const QUOTE_LIFETIME_MS = 30_000;
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** The default auto-settlement delay: when the COMPLETED state is entered. */
const SETTLE_AFTER_MS = 5_000;

/** Inserts `count` operations of `customerId`, the four kinds in turn, oldest first. */
export async function seedOperations(store: Store, reference: ReferenceData, customerId: string, count: number): Promise<void> {
  const accounts = (await store.all('account', customerId)).filter((a) => hasAssets(a, ['BRL', 'USDT']));
  const beneficiary = (await store.all('beneficiary', customerId)).find((b) => b.paymentInstructions.some((pi) => pi.asset === 'BRL'));
  if (accounts.length < 2 || !beneficiary)
    throw new Error(`seed: customer ${customerId} needs two BRL/USDT accounts and a beneficiary with a BRL instruction`);
  const instruction = beneficiary.paymentInstructions.find((pi) => pi.asset === 'BRL')!;
  const { scales } = reference;
  // Times step forward by a millisecond per operation, ending now: list order and times agree.
  const start = Date.now() - count;
  for (let i = 0; i < count; i++) {
    const account = accounts[i % accounts.length] as AccountRecord;
    const at = start + i;
    const iso = new Date(at).toISOString();
    const id = randomUUID();
    const whole = 10 + (i % 9000);
    let pair: [string, string];
    let intent: Operation['intent'];
    let path: string;
    let body: Record<string, unknown>;
    switch (i % 4) {
      case 0:
        pair = ['BRL', 'BRL'];
        intent = {
          type: 'DEPOSIT',
          fundingInstruction: {
            rail: 'PIX',
            payload: buildDepositBrCode({
              operationId: id,
              merchantName: ownerName(account),
              merchantCity: account.account.owner.address?.city ?? FALLBACK_MERCHANT_CITY,
            }),
            expiresAt: new Date(at + FUNDING_WINDOW_MS).toISOString(),
          },
        };
        path = '/v1/operations/deposits';
        body = { fundingInstruction: { rail: 'PIX' } };
        break;
      case 1:
        pair = ['USDT', 'BRL'];
        intent = { type: 'WITHDRAWAL', beneficiary: { id: beneficiary.id, paymentInstructionId: instruction.id } };
        path = '/v1/operations/withdrawals';
        body = { beneficiary: { mode: 'REFERENCE', id: beneficiary.id } };
        break;
      case 2:
        pair = ['BRL', 'USDT'];
        intent = { type: 'SWAP' };
        path = '/v1/operations/swaps';
        body = {};
        break;
      default: {
        pair = ['BRL', 'BRL'];
        const target = accounts[(i + 1) % accounts.length] as AccountRecord;
        intent = { type: 'TRANSFER', targetAccount: { id: target.account.id, owner: ownerName(target) } };
        path = '/v1/operations/transfers';
        body = { targetAccountId: target.account.id };
      }
    }
    const [sourceAsset, targetAsset] = pair;
    const sourceAmount = `${whole}.${String(i % 100).padStart(2, '0')}`;
    const price = priceQuote({ sourceAsset, targetAsset, sourceAmount }, reference.rates, scales);
    const transfer = intent.type === 'TRANSFER';
    const quote: QuoteRecord = {
      id: randomUUID(),
      customerId,
      accountId: account.account.id,
      sourceAsset,
      targetAsset,
      ...price,
      createdAt: iso,
      expiresAt: new Date(at + QUOTE_LIFETIME_MS).toISOString(),
      operationId: null,
      internal: transfer,
    };
    await store.insert('quote', customerId, quote.id, quote);
    if (!transfer) {
      // The client's POST /v1/quotes, answered with the quote as QuoteService.present shows it.
      const request = { accountId: account.account.id, sourceAsset, targetAsset, sourceAmount };
      await idempotent(store, customerId, at, 'POST', '/v1/quotes', request, presented(quote, customerId, scales));
    }
    const operation = buildOperation({
      id,
      customerId,
      accountId: account.account.id,
      sourceAmount: amount(price.sourceAmount, sourceAsset, scales),
      targetAmount: amount(price.targetAmount, targetAsset, scales),
      intent,
      quote: { id: quote.id, rate: quote.rate, expiresAt: quote.expiresAt },
      accountTags: account.account.tags,
      at: iso,
    });
    if (!(await store.insertConsumingQuote(quote.id, 'operation', customerId, id, operation))) throw new Error('seed: quote not consumed');
    const createBody = transfer
      ? { accountId: account.account.id, asset: sourceAsset, amount: sourceAmount, ...body }
      : { accountId: account.account.id, quoteId: quote.id, ...body };
    await idempotent(store, customerId, at, 'POST', path, createBody, operation);
    await timeline(store, operation, 'OPERATION_REQUESTED');
    // Its auto-settlement, as OperationService.settle records it.
    const settledAt = new Date(at + SETTLE_AFTER_MS).toISOString();
    const transactions = settlementPlan(operation).transactions.map((t) => ({
      id: randomUUID(),
      rail: t.rail,
      direction: t.direction,
      amount: t.amount,
      status: 'CONFIRMED' as const,
      confirmedAt: settledAt,
    }));
    const settled = await store.update('operation', id, (current) => moveOperation(current, 'COMPLETED', settledAt, { transactions }));
    await timeline(store, settled!, 'OPERATION_COMPLETED');
  }
}

/** A request's idempotency entry and its answer, as runIdempotent keeps them. */
async function idempotent(store: Store, customerId: string, at: number, method: string, path: string, body: unknown, answer: unknown) {
  const key = `${customerId}:${randomUUID()}`;
  await store.claimIdempotencyKey(key, fingerprint(method, path, body), at, IDEMPOTENCY_TTL_MS);
  await store.completeIdempotencyKey(key, { status: 201, body: answer });
}

/** As operation-timeline.ts records an OPERATION_* event. */
async function timeline(store: Store, operation: Operation, eventType: TimelineEntry['eventType']): Promise<void> {
  const { status, createdAt } = operation.currentState;
  await appendTimelineEntry(store, operation.customer.id, operation.id, { eventType, at: createdAt, status });
}

function presented(quote: QuoteRecord, customerId: string, scales: ReferenceData['scales']): Quote {
  return {
    id: quote.id,
    customer: { id: customerId },
    accountId: quote.accountId,
    sourceAmount: amount(quote.sourceAmount, quote.sourceAsset, scales),
    targetAmount: amount(quote.targetAmount, quote.targetAsset, scales),
    rate: quote.rate,
    status: 'OPEN',
    operationId: null,
    expiresAt: quote.expiresAt,
    createdAt: quote.createdAt,
  };
}

function hasAssets(record: AccountRecord, assets: string[]): boolean {
  return assets.every((asset) => record.account.assets.some((a) => a.currency === asset));
}

/** As OperationService names an account's owner (the merchant of a deposit, a transfer's target). */
function ownerName(record: AccountRecord): string {
  const owner = record.account.owner;
  return owner.type === 'COMPANY' ? owner.legalName : `${owner.firstName} ${owner.lastName}`;
}
