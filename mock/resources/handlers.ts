// One handler per operationId of the document: parse nothing (validation has run, and the
// context is typed from the operation), call the service, shape the answer. The app refuses to
// start if this table and the document differ.
import { pageParams } from './page-params';
import type { ServiceHandlers } from './types';

const ok = (body: unknown) => ({ status: 200, body });
const created = (body: unknown) => ({ status: 201, body });

export const handlers: ServiceHandlers = {
  createToken: async ({ body, services }) => ok(await services.tokens.issue(body.clientId, body.clientSecret)),

  listAccounts: async (ctx) => ok(await ctx.services.accounts.list(ctx.customerId, pageParams(ctx))),
  getAccount: async ({ customerId, params, services }) => ok(await services.accounts.get(customerId, params.accountId)),
  updateAccount: async ({ customerId, params, body, services }) =>
    ok(await services.accounts.replaceOwner(customerId, params.accountId, body.owner)),

  createQuote: async ({ customerId, body, services }) => created(await services.quotes.create(customerId, body)),
  getQuote: async ({ customerId, params, services }) => ok(await services.quotes.get(customerId, params.quoteId)),

  listOperations: async (ctx) => ok(await ctx.services.operations.list(ctx.customerId, pageParams(ctx))),
  getOperation: async ({ customerId, params, services }) => ok(await services.operations.get(customerId, params.operationId)),
  createDeposit: async ({ customerId, body, services }) => created(await services.operations.createDeposit(customerId, body)),
  createWithdrawal: async ({ customerId, body, services }) => created(await services.operations.createWithdrawal(customerId, body)),
  createSwap: async ({ customerId, body, services }) => created(await services.operations.createSwap(customerId, body)),
  createTransfer: async ({ customerId, body, services }) => created(await services.operations.createTransfer(customerId, body)),

  listBeneficiaries: async (ctx) => ok(await ctx.services.beneficiaries.list(ctx.customerId, pageParams(ctx))),
  createBeneficiary: async ({ customerId, body, services }) => created(await services.beneficiaries.create(customerId, body)),
  getBeneficiary: async ({ customerId, params, services }) => ok(await services.beneficiaries.get(customerId, params.beneficiaryId)),
  addPaymentInstruction: async ({ customerId, params, body, services }) =>
    created(await services.beneficiaries.addInstruction(customerId, params.beneficiaryId, body)),

  createSubscription: async ({ customerId, body, services }) => created(await services.subscriptions.create(customerId, body)),
  listSubscriptions: async (ctx) => ok(await ctx.services.subscriptions.list(ctx.customerId, pageParams(ctx))),
  getSubscription: async ({ customerId, params, services }) => ok(await services.subscriptions.get(customerId, params.subscriptionId)),
  updateSubscription: async ({ customerId, params, body, services }) =>
    ok(await services.subscriptions.update(customerId, params.subscriptionId, body)),
  deleteSubscription: async ({ customerId, params, services }) => {
    await services.subscriptions.remove(customerId, params.subscriptionId);
    return { status: 204 };
  },
  listExecutionLogs: async (ctx) =>
    ok(
      await ctx.services.subscriptions.listLogs(ctx.customerId, ctx.params.subscriptionId, {
        ...pageParams(ctx),
        filters: ctx.query.filters,
      }),
    ),
  resendExecutionLog: async ({ customerId, params, services }) => {
    const { log } = await services.subscriptions.getLog(customerId, params.subscriptionId, params.executionLogId);
    return { status: 202, body: await services.webhooks.resend(customerId, log) };
  },

  listReferenceResources: async (ctx) => ok(await ctx.services.reference.resources(pageParams(ctx))),
  listReferenceEventTypes: async (ctx) => ok(await ctx.services.reference.eventTypes(pageParams(ctx))),
};
