// Breaks made by wrapping or replacing handlers (createApp's `handlers` option): a wrong status, a
// total over every page, a lookup that leaks another customer's record, a delete that deletes nothing.
import { handlers as defaultHandlers } from '../../../mock/resources/handlers';
import {
  routeHandlers,
  type HandlerResult,
  type RouteHandler,
  type ServiceHandlers,
  type ValidatedRequest,
} from '../../../mock/resources/types';
import type { Break } from './break';

function withHandlers(change: (table: ServiceHandlers) => void): ServiceHandlers {
  const table: ServiceHandlers = { ...defaultHandlers };
  change(table);
  return table;
}

/** The default handlers by operationId, as the pipeline calls them (for the breaks that wrap every list). */
const byId: Record<string, RouteHandler> = routeHandlers(defaultHandlers);

/** A page walk with the original handler, for a total over every page. */
async function countAll(id: string, ctx: ValidatedRequest): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const page = await byId[id]!({ ...ctx, query: { ...ctx.query, limit: 100, cursor, direction: 'NEXT' } });
    const body = page.body as { data: unknown[]; meta: { nextCursor: string | null } };
    total += body.data.length;
    if (!body.meta.nextCursor) break;
    cursor = body.meta.nextCursor;
  }
  return total;
}

export const createQuote200: Break = {
  id: 'create-quote-200',
  rules: ['DOC-STATUS'],
  what: 'createQuote answers 200 instead of 201',
  files: ['quotes'],
  options: () => ({
    handlers: withHandlers((t) => (t.createQuote = async (ctx) => ({ ...(await defaultHandlers.createQuote(ctx)), status: 200 }))),
  }),
};

export const totalCountsEverything: Break = {
  id: 'total-counts-everything',
  rules: ['PAGE-TOTAL'],
  what: 'meta.total counts every record of the list, not the page',
  files: ['pagination'],
  options: () => ({
    handlers: withHandlers((t) => {
      // Every list at once: the table seen as the pipeline calls it, by operationId.
      const erased = t as unknown as Record<string, RouteHandler>;
      for (const id of Object.keys(erased).filter((k) => /^list/.test(k))) {
        erased[id] = async (ctx): Promise<HandlerResult> => {
          const page = await byId[id]!(ctx);
          if (page.status !== 200) return page;
          const body = page.body as { meta: Record<string, unknown> };
          return { ...page, body: { ...body, meta: { ...body.meta, total: await countAll(id, ctx) } } };
        };
      }
    }),
  }),
};

export const tenancyLeak: Break = {
  id: 'tenancy-leak',
  rules: ['TENANCY-OWN-DATA'],
  what: 'getAccount answers another customer’s account',
  files: ['tenancy'],
  options: (mock) => ({
    handlers: withHandlers((t) => {
      t.getAccount = async (ctx) => {
        try {
          return await defaultHandlers.getAccount(ctx);
        } catch (error) {
          const record = await mock().deps.store.get('account', ctx.params.accountId);
          if (record) return { status: 200, body: record.account };
          throw error;
        }
      };
    }),
  }),
};

export const teapot418: Break = {
  id: 'teapot-418',
  rules: ['DOC-STATUS', 'SUB-REFERENCE'],
  what: 'listReferenceResources answers 418 (a status the document does not give it)',
  files: ['subscriptions'],
  options: () => ({
    handlers: withHandlers(
      (t) =>
        (t.listReferenceResources = () => Promise.resolve({ status: 418, body: { code: 'I_AM_A_TEAPOT', message: 'I am a teapot.' } })),
    ),
  }),
};

export const deleteIsANoOp: Break = {
  id: 'delete-is-a-no-op',
  rules: ['SUB-LIFECYCLE'],
  what: 'deleteSubscription answers 204 and deletes nothing',
  files: ['subscriptions'],
  options: () => ({
    handlers: withHandlers((t) => {
      t.deleteSubscription = async ({ customerId, params, services }) => {
        await services.subscriptions.get(customerId, params.subscriptionId);
        return { status: 204 };
      };
    }),
  }),
};

export const resendDeliversNothing: Break = {
  id: 'resend-delivers-nothing',
  rules: ['HOOK-RESEND'],
  what: 'a resend answers 202 with the old log and delivers nothing',
  files: ['webhooks-logs'],
  options: () => ({
    handlers: withHandlers((t) => {
      t.resendExecutionLog = async ({ customerId, params, services }) => {
        const { log } = await services.subscriptions.getLog(customerId, params.subscriptionId, params.executionLogId);
        return { status: 202, body: log };
      };
    }),
  }),
};
