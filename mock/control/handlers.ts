// The control API's operationId → handler table, assembled from the files by role. The app
// refuses to start when this table and spec/control-openapi.yaml differ.
import { accountHandlers } from './account-handlers';
import { beneficiaryHandlers } from './beneficiary-handlers';
import { clockHandlers } from './clock-handlers';
import type { ControlContext, ControlHandlers } from './context';
import { customerClockHandlers } from './customer-clock-handlers';
import { customerHandlers } from './customers';
import { deliveryHandlers } from './delivery-handlers';
import { faultHandlers } from './fault-handlers';
import { jobHandlers } from './job-handlers';
import { operationHandlers } from './operation-handlers';
import { snapshotHandlers } from './snapshot-handlers';
import { stateHandlers } from './state-handlers';
import { systemHandlers } from './system-handlers';
import { verifyHandlers } from './verify-handlers';

export function controlHandlers(c: ControlContext): ControlHandlers {
  return {
    ...systemHandlers(c),
    ...snapshotHandlers(c),
    ...customerHandlers(c),
    ...clockHandlers(c),
    ...customerClockHandlers(c),
    ...operationHandlers(c),
    ...accountHandlers(c),
    ...beneficiaryHandlers(c),
    ...faultHandlers(c),
    ...stateHandlers(c),
    ...deliveryHandlers(c),
    ...jobHandlers(c),
    ...verifyHandlers(c),
  };
}
