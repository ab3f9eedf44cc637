// What a promise rejected with, asserting it was a ServiceError (the catalogue's error).
import { expect } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';

export async function serviceErrorFrom(promise: Promise<unknown>): Promise<ServiceError> {
  let thrown: unknown;
  try {
    await promise;
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ServiceError);
  return thrown as ServiceError;
}
