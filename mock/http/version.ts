// Seed "Versioning": optional X-Service-Version; absent means the default. This mock serves
// version 1 only (anything else is 400 UNSUPPORTED_VERSION, as the XServiceVersion parameter says).
import { ServiceError } from '../errors/catalogue';

export const SUPPORTED_VERSIONS = ['1'];

export function checkVersion(header: string | string[] | undefined): void {
  if (header === undefined) return;
  // Node trims a header's value and joins a repeated one with ', ' ("1, 1" is not a version).
  const value = String(header);
  if (!SUPPORTED_VERSIONS.includes(value))
    throw new ServiceError('UNSUPPORTED_VERSION', { requested: value, supported: SUPPORTED_VERSIONS });
}
