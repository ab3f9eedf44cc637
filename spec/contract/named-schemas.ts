// The document's schemas checked by name (Contract.checkSchema): those of a fixture file's records
// and reference data, checked when the mock starts (mock/services/fixture-checks.ts), and those of
// a snapshot's records, checked when one is imported (mock/control/snapshot-checks.ts), in whichever
// of the two documents has them (the service's, or the control API's for TimelineEntry). The build
// precompiles them with the operations' validators (standalone.ts), so `serve` compiles none of
// them (an import first compiled four, which loaded ajv itself); a name not listed here is still
// checked, compiled when first asked for.
import { validatorKey } from './operations';

export const NAMED_SCHEMAS = [
  'Account',
  'Amount',
  'Beneficiary',
  'DecimalString',
  'ExecutionLog',
  'Operation',
  'Quote',
  // Both documents': a timeline entry's reason, as the service document knows it.
  'Reason',
  'Subscription',
  // The control document's: a snapshot's timeline entries (snapshot-checks.ts).
  'TimelineEntry',
] as const;

/** The key of a named schema's validator (`schema.Account`). */
export function schemaKey(name: string): string {
  return validatorKey('schema', name);
}
