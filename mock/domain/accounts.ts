// Owner profiles. Seed: the tax document is sent as `identificationDocument` and returned as
// `taxId`; the company owner's UBOs are not part of the update and are kept.
import type { Account, Schemas } from './records';

export type OwnerInput = Schemas['AccountUpdate']['owner'];
type Owner = Account['owner'];

export function toResponseOwner(input: OwnerInput, current: Owner): Owner {
  if (input.type === 'COMPANY') {
    const ubos = current.type === 'COMPANY' ? current.ubos : [];
    return compact({
      type: 'COMPANY' as const,
      legalName: input.legalName,
      taxId: input.identificationDocument,
      industry: input.industry,
      expectedMonthlyVolume: input.expectedMonthlyVolume,
      address: input.address,
      ubos,
    }) as Owner;
  }
  return compact({
    type: 'INDIVIDUAL' as const,
    firstName: input.firstName,
    lastName: input.lastName,
    taxId: input.identificationDocument,
    birthDate: input.birthDate,
    email: input.email,
    phone: input.phone,
    address: input.address,
  }) as Owner;
}

/** Drops absent optional fields so the response never carries `undefined`. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
