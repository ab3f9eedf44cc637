// What the control handlers are given: the app's dependencies and services, the service
// document (to check resources against it), the fixtures (reset, new customers), and the
// fault registry and journal the control API manages.
import type { Logger } from 'pino';
import type { Contract } from '../../spec/contract';
import type { Cluster } from '../cluster/cluster';
import type { operations as ControlOperations } from '../../spec/generated/control-api-types';
import type { Services } from '../services';
import type { Deps } from '../services/deps';
import type { FixtureSource } from '../services/fixtures';
import type { FaultRegistry } from '../http/faults';
import type { Journal } from '../http/journal';
import type { HandlerTable } from '../resources/types';

export interface ControlContext {
  deps: Deps;
  services: Services;
  publicContract: Contract;
  /** The control API's own document (spec/control-openapi.yaml), which the control routes answer by. */
  controlContract: Contract;
  /** The fixtures a reset loads (read again from their file) and new customers copy. */
  fixtures: FixtureSource;
  faults: FaultRegistry;
  journal: Journal;
  logger: Logger;
  /** Every replica of this mock (one in memory; all on the same Redis). */
  cluster: Cluster;
}

/** The operations answered as a stream rather than a JSON answer (router.ts mounts them apart). */
export type StreamOperation = 'streamChanges';

/** The control API's handlers, one per operationId of spec/control-openapi.yaml, each typed by its operation. */
export type ControlHandlers = HandlerTable<Omit<ControlOperations, StreamOperation>>;

export const ok = (body: unknown) => ({ status: 200, body });
export const created = (body: unknown) => ({ status: 201, body });
export const noContent = () => ({ status: 204 });

/** Lets what fell due run, and its webhooks go out, on every replica, before a control call answers. */
export async function settleDueWork(c: ControlContext): Promise<void> {
  await c.cluster.ask('run-due');
}
