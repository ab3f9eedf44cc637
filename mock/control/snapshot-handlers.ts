// Snapshot export (GET /_mock/snapshot) and import (POST /_mock/snapshot).
import type { HandlerTable } from '../resources/types';
import { ok, type ControlContext } from './context';
import { restoreSnapshot, takeSnapshot } from './snapshot';

export function snapshotHandlers(c: ControlContext): HandlerTable {
  return {
    getSnapshot: async () => ok(await takeSnapshot(c)),
    restoreSnapshot: async ({ body }) => {
      await restoreSnapshot(c, body);
      return ok({ status: 'restored' });
    },
  };
}
