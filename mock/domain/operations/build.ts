// A new operation record. Seed: one record shape for every kind, created REQUESTED, tags
// "stamped at creation, inherited from the account's propagating tags".
import type { Account, Operation, Tag } from '../records';

export interface NewOperation {
  id: string;
  customerId: string;
  accountId: string;
  sourceAmount: Operation['sourceAmount'];
  targetAmount: Operation['targetAmount'];
  intent: Operation['intent'];
  quote: Operation['quote'];
  accountTags: Account['tags'];
  at: string;
}

export function buildOperation(input: NewOperation): Operation {
  return {
    id: input.id,
    customer: { id: input.customerId },
    accountId: input.accountId,
    sourceAmount: input.sourceAmount,
    targetAmount: input.targetAmount,
    intent: input.intent,
    quote: input.quote,
    transactions: [],
    currentState: { status: 'REQUESTED', createdAt: input.at },
    tags: propagatingTags(input.accountTags),
    createdAt: input.at,
    updatedAt: input.at,
  };
}

export function propagatingTags(tags: Tag[]): Tag[] {
  return tags.filter((tag) => tag.propagates === true).map((tag) => ({ key: tag.key, value: tag.value }));
}
