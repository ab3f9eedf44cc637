// The document's own types (generated from spec/openapi.yaml), for readable test code.
import type { components } from '../../spec/generated/api-types';

export type Schemas = components['schemas'];
export type Account = Schemas['Account'];
export type Quote = Schemas['Quote'];
export type Operation = Schemas['Operation'];
export type Beneficiary = Schemas['Beneficiary'];
export type Subscription = Schemas['Subscription'];
export type ExecutionLog = Schemas['ExecutionLog'];
export type ErrorBody = Schemas['Error'];
export interface Page<T> {
  data: T[];
  meta: Schemas['PageMeta'];
}
