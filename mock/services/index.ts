// All services, built once per app over the same injected dependencies.
import type { Logger } from 'pino';
import type { Contract } from '../../spec/contract';
import { WebhookDispatcher, type Deliver } from '../webhooks/dispatcher';
import { AccountService } from './account-service';
import { BeneficiaryService } from './beneficiary-service';
import type { Deps } from './deps';
import { OperationService } from './operation-service';
import { QuoteService } from './quote-service';
import { ReferenceService } from './reference-service';
import { SubscriptionService } from './subscription-service';
import { TokenService } from './token-service';

export interface Services {
  tokens: TokenService;
  accounts: AccountService;
  quotes: QuoteService;
  operations: OperationService;
  beneficiaries: BeneficiaryService;
  subscriptions: SubscriptionService;
  reference: ReferenceService;
  webhooks: WebhookDispatcher;
}

export function createServices(deps: Deps, contract: Contract, logger: Logger, send?: Deliver): Services {
  const quotes = new QuoteService(deps);
  const subscriptions = new SubscriptionService(deps);
  return {
    tokens: new TokenService(deps),
    accounts: new AccountService(deps),
    quotes,
    operations: new OperationService(deps, quotes),
    beneficiaries: new BeneficiaryService(deps),
    subscriptions,
    reference: new ReferenceService(deps),
    webhooks: new WebhookDispatcher(deps, subscriptions, contract, logger, send),
  };
}
