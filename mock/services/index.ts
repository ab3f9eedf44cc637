// All services, built once per app over the same injected dependencies. The webhook dispatcher
// sits below them (it only needs a URL check of the subscription service), so the app builds
// it after these and hands it that one function.
import type { WebhookDispatcher } from '../webhooks/dispatcher';
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

export function createServices(deps: Deps): Omit<Services, 'webhooks'> {
  const quotes = new QuoteService(deps);
  return {
    tokens: new TokenService(deps),
    accounts: new AccountService(deps),
    quotes,
    operations: new OperationService(deps, quotes),
    beneficiaries: new BeneficiaryService(deps),
    subscriptions: new SubscriptionService(deps),
    reference: new ReferenceService(deps),
  };
}
