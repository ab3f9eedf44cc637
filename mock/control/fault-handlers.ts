// Faults and the journal: inject, list and remove faults; read the last requests.
import { ServiceError } from '../errors/catalogue';
import { exchangeView } from '../http/journal-exchange';
import { created, noContent, ok, type ControlContext, type ControlHandlers } from './context';

export function faultHandlers(c: ControlContext) {
  return {
    // Each change answers once every replica has taken it.
    createFault: async ({ body }) => {
      const fault = await c.faults.add(body);
      await c.cluster.announceFaults();
      return created(fault);
    },
    listFaults: async () => ok({ data: await c.faults.list() }),
    deleteFault: async ({ params }) => {
      const id = params.faultId;
      if (!(await c.faults.remove(id))) throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'fault', id }, `No fault with id ${id}.`);
      await c.cluster.announceFaults();
      return noContent();
    },
    deleteAllFaults: async () => {
      await c.faults.clear();
      await c.cluster.announceFaults();
      return noContent();
    },
    getJournal: async ({ query }) => {
      // Every replica's last requests are in before the journal is read.
      await c.cluster.ask('flush-journal');
      return ok({ data: await c.journal.entries(query.limit) });
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
