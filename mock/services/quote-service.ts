// Quotes (POST /v1/quotes in the OpenAPI document): priced from the fixture rate table, alive 30 s of mock time by
// default, consumed at most once (the atomic step is store.insertConsumingQuote).
import { ServiceError } from '../errors/catalogue';
import { amount } from '../domain/money';
import { priceQuote, quoteStatus } from '../domain/quotes';
import type { Quote, QuoteRecord, Schemas } from '../domain/records';
import type { Deps } from './deps';
import { ownAccount } from './ownership';

export type QuoteCreate = Schemas['QuoteCreate'];

export class QuoteService {
  constructor(private readonly deps: Deps) {}

  async create(customerId: string, body: QuoteCreate): Promise<Quote> {
    const { store } = this.deps;
    const record = await ownAccount(store, customerId, body.accountId, 'accountId');
    assertAssetsEnabled(record.account, [body.sourceAsset, body.targetAsset]);
    const quote = await this.make(customerId, body.accountId, body, false);
    return this.present(quote, Date.parse(quote.createdAt));
  }

  /** Prices and stores a quote; `internal` quotes are the 1:1 ones a transfer makes for itself. */
  async make(customerId: string, accountId: string, request: Omit<QuoteCreate, 'accountId'>, internal: boolean): Promise<QuoteRecord> {
    const { store, clocks, config, reference, newId } = this.deps;
    const price = priceQuote(request, reference.rates, reference.scales);
    // The customer's clock (its own, when it has one): its quotes live 30 s of that clock.
    const now = (await clocks.clockOf(customerId)).now();
    const quote: QuoteRecord = {
      id: newId(),
      customerId,
      accountId,
      sourceAsset: request.sourceAsset,
      targetAsset: request.targetAsset,
      ...price,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + config.quoteLifetimeMs).toISOString(),
      operationId: null,
      internal,
    };
    await store.insert('quote', customerId, quote.id, quote);
    return quote;
  }

  async get(customerId: string, quoteId: string): Promise<Quote> {
    const quote = await this.deps.store.get('quote', quoteId);
    if (!quote || quote.customerId !== customerId)
      throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'quote', id: quoteId }, `No quote with id ${quoteId}.`);
    return this.present(quote, (await this.deps.clocks.clockOf(customerId)).now());
  }

  /** The quote as the API shows it, its status by `now` (the customer's clock, when known here). */
  present(quote: QuoteRecord, now = (this.deps.clocks.cached(quote.customerId) ?? this.deps.clock).now()): Quote {
    const { scales } = this.deps.reference;
    return {
      id: quote.id,
      customer: { id: quote.customerId },
      accountId: quote.accountId,
      sourceAmount: amount(quote.sourceAmount, quote.sourceAsset, scales),
      targetAmount: amount(quote.targetAmount, quote.targetAsset, scales),
      rate: quote.rate,
      status: quoteStatus(quote, now),
      operationId: quote.operationId,
      expiresAt: quote.expiresAt,
      createdAt: quote.createdAt,
    };
  }
}

/** An account moves only the assets it has enabled. */
export function assertAssetsEnabled(account: { id: string; assets: Array<{ currency: string }> }, assets: string[]): void {
  // Plain loops (no Set, no closure): this runs on every quote and operation create.
  for (let i = 0; i < assets.length; i++) {
    const asset = assets[i] as string;
    // An asset named twice is reported once.
    if (assets.indexOf(asset) < i || hasAsset(account.assets, asset)) continue;
    throw new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'body', message: `account ${account.id} has no ${asset} asset` }] });
  }
}

function hasAsset(enabled: Array<{ currency: string }>, asset: string): boolean {
  for (let i = 0; i < enabled.length; i++) if ((enabled[i] as { currency: string }).currency === asset) return true;
  return false;
}
