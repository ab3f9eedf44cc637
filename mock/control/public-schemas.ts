// Control bodies and answers that are resources of the service API (x-public-schema in the
// control document) are checked against spec/openapi.yaml itself, so no schema is written twice.
import type { Logger } from 'pino';
import type { Contract } from '../../spec/contract';
import type { FieldError } from '../../spec/contract/validators';
import { ServiceError } from '../errors/catalogue';
import type { RouteHandler } from '../resources/types';

/**
 * Where `value` breaks the service document's `schema`, errors and drift alike (the service shows
 * what it stores, and strict answers refuse drift), each field named under `field`; by `rename`
 * when `value` was built from another object whose own field names the caller's reader knows.
 */
export function publicProblems(
  contract: Contract,
  schema: string,
  value: unknown,
  field: string,
  rename: (schemaField: string) => string = (f) => f,
): FieldError[] {
  const check = contract.checkSchema(schema, value);
  return [...check.errors, ...check.drift].map((p) => ({ field: p.field ? `${field}.${rename(p.field)}` : field, message: p.message }));
}

/** A request part that the service will store and show (a reason): 400 if the service document would refuse it. */
export function assertPublic(contract: Contract, schema: string, value: unknown, field: string): void {
  const problems = publicProblems(contract, schema, value, field);
  if (problems.length > 0) throw new ServiceError('VALIDATION_ERROR', { fields: problems });
}

/** Strict mode: a success answer that breaks the service document's schema is a 500, as on the service API. */
export function checkedAgainstPublic(handler: RouteHandler, schema: string, contract: Contract, logger: Logger): RouteHandler {
  return async (ctx) => {
    const result = await handler(ctx);
    if (result.status >= 300) return result;
    const check = contract.checkSchema(schema, result.body);
    const violations = [...check.errors, ...check.drift];
    if (violations.length > 0) {
      logger.error({ schema, violations }, 'control response breaks the service document');
      throw new ServiceError('INTERNAL_ERROR', { reason: `the mock built a ${schema} that breaks the API document`, schema, violations });
    }
    return result;
  };
}
