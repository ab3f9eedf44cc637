// Snapshot export (GET /_mock/snapshot) and import (POST /_mock/snapshot).
import { ok, type ControlContext, type ControlHandlers } from './context';
import { restoreSnapshot, takeSnapshot } from './snapshot';

export function snapshotHandlers(c: ControlContext) {
  return {
    getSnapshot: async () => ok(await takeSnapshot(c)),
    restoreSnapshot: async ({ body }) => {
      await restoreSnapshot(c, body);
      return ok({ status: 'restored' });
    },
  } satisfies Partial<ControlHandlers>;
}
