// Faults and the journal: inject, list and remove faults; read the last requests.
import { ServiceError } from '../errors/catalogue';
import { created, noContent, ok, type ControlContext, type ControlHandlers } from './context';

export function faultHandlers(c: ControlContext) {
  return {
    createFault: async ({ body }) => created(await c.faults.add(body)),
    listFaults: async () => ok({ data: await c.faults.list() }),
    deleteFault: async ({ params }) => {
      const id = params.faultId;
      if (!(await c.faults.remove(id))) throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'fault', id }, `No fault with id ${id}.`);
      return noContent();
    },
    deleteAllFaults: async () => {
      await c.faults.clear();
      return noContent();
    },
    getJournal: async ({ query }) => ok({ data: await c.journal.entries(query.limit) }),
  } satisfies Partial<ControlHandlers>;
}
