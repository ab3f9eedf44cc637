// Faults and the journal: inject, list and remove faults; read the last requests.
import { ServiceError } from '../errors/catalogue';
import { created, noContent, ok, type ControlContext, type ControlHandlers } from './context';

export function faultHandlers(c: ControlContext) {
  return {
    // `add` throws on a fault it refuses: run inside a promise's executor, that is a rejection.
    createFault: ({ body }) => new Promise((resolve) => resolve(created(c.faults.add(body)))),
    listFaults: () => Promise.resolve(ok({ data: c.faults.list() })),
    deleteFault: ({ params }) => {
      const id = params.faultId;
      if (!c.faults.remove(id))
        return Promise.reject(new ServiceError('RESOURCE_NOT_FOUND', { resource: 'fault', id }, `No fault with id ${id}.`));
      return Promise.resolve(noContent());
    },
    deleteAllFaults: () => {
      c.faults.clear();
      return Promise.resolve(noContent());
    },
    getJournal: ({ query }) => Promise.resolve(ok({ data: c.journal.latest(query.limit) })),
  } satisfies Partial<ControlHandlers>;
}
