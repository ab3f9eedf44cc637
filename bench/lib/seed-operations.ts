// Operation records for the scaling benchmark, built as OperationService.open builds them
// (buildOperation over a priced quote, the deposit's BR Code, the withdrawal's instruction,
// the transfer's target owner) and inserted straight through the Store interface: a million
// creates over HTTP would take minutes, this takes seconds. Every record gets its own ids,
// times and amount strings, as real creates do, so the memory measured per record is honest.
import { randomUUID } from 'node:crypto';
import { amount } from '../../mock/domain/money';
import { buildOperation } from '../../mock/domain/operations/build';
import { buildDepositBrCode } from '../../mock/domain/pix';
import { priceQuote } from '../../mock/domain/quotes';
import type { AccountRecord, Operation } from '../../mock/store/records';
import type { ReferenceData } from '../../mock/services/deps';
import type { Store } from '../../mock/store/store';

const FUNDING_WINDOW_MS = 60 * 60 * 1000;
const QUOTE_LIFETIME_MS = 30_000;

/** Inserts `count` operations of `customerId`, the four kinds in turn, oldest first. */
export async function seedOperations(store: Store, reference: ReferenceData, customerId: string, count: number): Promise<void> {
  const accounts = (await store.all('account', customerId)).filter((a) => hasAssets(a, ['BRL', 'USDT']));
  const beneficiary = (await store.all('beneficiary', customerId)).find((b) => b.paymentInstructions.some((pi) => pi.asset === 'BRL'));
  if (accounts.length < 2 || !beneficiary)
    throw new Error(`seed: customer ${customerId} needs two BRL/USDT accounts and a beneficiary with a BRL instruction`);
  const instruction = beneficiary.paymentInstructions.find((pi) => pi.asset === 'BRL')!;
  // Times step forward by a millisecond per record, ending now: list order and times agree.
  const start = Date.now() - count;
  for (let i = 0; i < count; i++) {
    const account = accounts[i % accounts.length] as AccountRecord;
    const at = start + i;
    const id = randomUUID();
    const whole = 10 + (i % 9000);
    let pair: [string, string];
    let intent: Operation['intent'];
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
              merchantCity: account.account.owner.address?.city ?? 'SAO PAULO',
            }),
            expiresAt: new Date(at + FUNDING_WINDOW_MS).toISOString(),
          },
        };
        break;
      case 1:
        pair = ['USDT', 'BRL'];
        intent = { type: 'WITHDRAWAL', beneficiary: { id: beneficiary.id, paymentInstructionId: instruction.id } };
        break;
      case 2:
        pair = ['BRL', 'USDT'];
        intent = { type: 'SWAP' };
        break;
      default: {
        pair = ['BRL', 'BRL'];
        const target = accounts[(i + 1) % accounts.length] as AccountRecord;
        intent = { type: 'TRANSFER', targetAccount: { id: target.account.id, owner: ownerName(target) } };
      }
    }
    const [sourceAsset, targetAsset] = pair;
    const price = priceQuote(
      { sourceAsset, targetAsset, sourceAmount: `${whole}.${String(i % 100).padStart(2, '0')}` },
      reference.rates,
      reference.scales,
    );
    const operation = buildOperation({
      id,
      customerId,
      accountId: account.account.id,
      sourceAmount: amount(price.sourceAmount, sourceAsset, reference.scales),
      targetAmount: amount(price.targetAmount, targetAsset, reference.scales),
      intent,
      quote: { id: randomUUID(), rate: price.rate, expiresAt: new Date(at + QUOTE_LIFETIME_MS).toISOString() },
      accountTags: account.account.tags,
      at: new Date(at).toISOString(),
    });
    await store.insert('operation', customerId, id, operation);
  }
}

function hasAssets(record: AccountRecord, assets: string[]): boolean {
  return assets.every((asset) => record.account.assets.some((a) => a.currency === asset));
}

/** As OperationService names an account's owner (the merchant of a deposit, a transfer's target). */
function ownerName(record: AccountRecord): string {
  const owner = record.account.owner;
  return owner.type === 'COMPANY' ? owner.legalName : `${owner.firstName} ${owner.lastName}`;
}
