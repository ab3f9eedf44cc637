// Faults and the journal: inject, list and remove faults; read the last requests.
import { ServiceError } from '../errors/catalogue';
import { exchangeView } from '../http/journal-exchange';
import { journalFilter } from '../http/journal-query';
import { created, noContent, ok, type ControlContext, type ControlHandlers } from './context';
import { notFound } from './lookup';

export function faultHandlers(c: ControlContext) {
  return {
    // Each change answers once every replica has taken it.
    createFault: async ({ body }) => {
      // A fault for a customer no one holds would never fire: 404 rather than a silent no-op.
      if (body.customerId !== undefined && !(await c.deps.store.get('customer', body.customerId)))
        throw notFound('customer', body.customerId);
      const fault = await c.faults.add(body);
      await c.cluster.announceFaults();
      return created(fault);
    },
    listFaults: async ({ query }) => ok({ data: await c.faults.list(query.customerId) }),
    deleteFault: async ({ params }) => {
      const id = params.faultId;
      if (!(await c.faults.remove(id))) throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'fault', id }, `No fault with id ${id}.`);
      await c.cluster.announceFaults();
      return noContent();
    },
    deleteAllFaults: async ({ query }) => {
      if (query.customerId === undefined) await c.faults.clear();
      else await c.faults.removeForCustomer(query.customerId);
      await c.cluster.announceFaults();
      return noContent();
    },
    getJournal: async ({ query }) => {
      const { limit, customerId, ...filter } = query;
      // Every replica's last requests are in before the journal is read.
      await c.cluster.ask('flush-journal');
      const filtered = customerId !== undefined || Object.values(filter).some((value) => value !== undefined);
      if (!filtered) return ok({ data: await c.journal.entries(limit) });
      // A customer's own journal: every replica's, not pushed out by other customers.
      if (customerId !== undefined && !(await c.deps.store.get('customer', customerId))) throw notFound('customer', customerId);
      const entries =
        customerId === undefined ? await c.journal.entries() : (await c.cluster.journalRecords(customerId)).map((record) => record.entry);
      return ok({ data: entries.filter(journalFilter(filter)).slice(0, limit) });
    },
    getJournalEntry: async ({ params }) => {
      await c.cluster.ask('flush-journal');
      const entry = await c.journal.find(params.requestId);
      if (!entry) {
        throw new ServiceError(
          'RESOURCE_NOT_FOUND',
          { resource: 'journal entry', id: params.requestId },
          `No request ${params.requestId} in the journal (it keeps the last ${c.journal.capacity}).`,
        );
      }
      // Kept by the replica that answered it; gone with that replica (summary only then).
      const exchange = await c.cluster.journalExchange(params.requestId);
      return ok(exchange ? { ...entry, ...exchangeView(exchange) } : entry);
    },
  } satisfies Partial<ControlHandlers>;
}
