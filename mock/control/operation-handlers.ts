// Operation actions: settle, pay (deposits), fail, flag. Each goes through OperationService, as
// the real transition would, so it emits the same event.
import { ServiceError } from '../errors/catalogue';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { operationOwner } from './lookup';
import { assertPublic } from './public-schemas';

export function operationHandlers(c: ControlContext) {
  const { store, clocks } = c.deps;
  const operations = c.services.operations;
  const reasonOf = (body: { reason: unknown }) => {
    assertPublic(c.publicContract, 'Reason', body.reason, 'body.reason');
    return body.reason as { code: string; message: string };
  };
  return {
    settleOperation: async ({ params }) => {
      const id = params.operationId;
      return ok(await operations.settle(await operationOwner(store, id), id));
    },
    payOperation: async ({ params }) => {
      const id = params.operationId;
      const customerId = await operationOwner(store, id);
      const operation = await operations.get(customerId, id);
      if (operation.intent.type !== 'DEPOSIT') {
        throw new ServiceError(
          'INVALID_STATE_TRANSITION',
          { type: operation.intent.type },
          `Only a DEPOSIT can be paid; this operation is a ${operation.intent.type}.`,
        );
      }
      const expiresAt = operation.intent.fundingInstruction.expiresAt;
      const status = operation.currentState.status;
      // Expired by the customer's clock (its own, when it has one).
      const now = (await clocks.clockOf(customerId)).now();
      if ((status === 'REQUESTED' || status === 'ACTION_REQUIRED') && expiresAt && Date.parse(expiresAt) <= now) {
        throw new ServiceError('INVALID_STATE_TRANSITION', { expiresAt }, `The PIX charge of this deposit expired at ${expiresAt}.`);
      }
      return ok(await operations.settle(customerId, id));
    },
    failOperation: async ({ params, body }) => {
      const id = params.operationId;
      return ok(await operations.move(await operationOwner(store, id), id, 'FAILED', reasonOf(body)));
    },
    requireOperationAction: async ({ params, body }) => {
      const id = params.operationId;
      return ok(await operations.move(await operationOwner(store, id), id, 'ACTION_REQUIRED', reasonOf(body)));
    },
  } satisfies Partial<ControlHandlers>;
}
