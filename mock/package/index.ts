// The package's entry point (`import { startMock } from 'fos-mock'`): the mock for a team's own
// tests, its typed control client, and the configuration it takes.
export { startMock, type RunningMock, type StartMockOptions } from './start-mock';
export { ControlClient, ControlError } from './control-client';
export { ConfigError, defaultConfig, type Config, type RateLimit } from '../config';
// A mock started elsewhere, per-test customers, verification and its assertions.
export { connectMock, type ConnectOptions } from './connect-mock';
export {
  CustomerHandle,
  type CountExpectation,
  type DeliveryPattern,
  type DeliveryVerdict,
  type JournalFilter,
  type RequestPattern,
  type RequestVerdict,
} from './control-client';
export { assertVerified, describeVerdict, VerificationError, verificationMatchers } from './assertions';
