// The document's schemas checked by name (Contract.checkSchema) when the mock starts: those of a
// fixture file's records and reference data (mock/services/fixture-checks.ts). The build
// precompiles them with the operations' validators (standalone.ts), so `serve` compiles none of
// them; a name not listed here is still checked, compiled when first asked for.
import { validatorKey } from './operations';

export const STARTUP_SCHEMAS = ['Account', 'Amount', 'Beneficiary', 'DecimalString'] as const;

/** The key of a named schema's validator (`schema.Account`). */
export function schemaKey(name: string): string {
  return validatorKey('schema', name);
}
