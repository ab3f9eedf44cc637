// Well-formed requests for every operation of the document, naming ids nobody has (fresh
// uuids): the sweeps send them without a token, with a wrong version, without an idempotency
// key, as malformed JSON, oversized or as text, and (with a token) expect 404 where the
// operation looks an id up. A test fails when the document gains a request body this table
// lacks, so the sweeps never silently miss an operation.
import { randomUUID } from 'node:crypto';
import type { Contract, OperationContract } from '../../spec/contract';

export const address = {
  addressLine1: 'Av. Paulista, 1000',
  addressLine2: null,
  city: 'Sao Paulo',
  state: 'SP',
  country: 'BR',
  postalCode: '01310-100',
};

export const companyOwner = {
  type: 'COMPANY',
  legalName: 'Contrato Teste Ltda',
  identificationDocument: { value: '11222333000181', type: 'CNPJ' },
  industry: 'SOFTWARE_DEVELOPMENT',
  expectedMonthlyVolume: 'FROM_0_TO_50000',
  incorporateDate: '2020-05-01',
  isStartup: true,
  address,
};

export const person = {
  type: 'INDIVIDUAL',
  firstName: 'Maria',
  lastName: 'Souza',
  identificationDocument: { type: 'CPF', value: '52998224725', country: 'BR' },
  birthDate: '1990-04-12',
  address,
};

export const pixInstruction = (dictKey = 'maria@example.com') => ({
  asset: 'BRL',
  address: { rail: 'PIX_KEY', dictKey },
  documents: [{ referenceId: randomUUID(), type: 'CUSTODY_ATTESTATION', version: 1 }],
  custodyDetail: { purpose: 'SUPPLIER_PAYMENT', custody: 'THIRD_PARTY', counterparty: 'Maria Souza' },
});

export const operationEvents = [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }];

const BODIES: Record<string, () => Record<string, unknown>> = {
  createToken: () => ({ clientId: `nobody-${randomUUID()}`, clientSecret: 'nothing' }),
  updateAccount: () => ({ owner: companyOwner }),
  createQuote: () => ({ accountId: randomUUID(), sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00' }),
  createDeposit: () => ({ accountId: randomUUID(), quoteId: randomUUID(), fundingInstruction: { rail: 'PIX' } }),
  createWithdrawal: () => ({ accountId: randomUUID(), quoteId: randomUUID(), beneficiary: { mode: 'REFERENCE', id: randomUUID() } }),
  createSwap: () => ({ accountId: randomUUID(), quoteId: randomUUID() }),
  createTransfer: () => ({ accountId: randomUUID(), targetAccountId: randomUUID(), asset: 'BRL', amount: '1.00' }),
  createBeneficiary: () => ({ entity: person, relationshipType: 'THIRD_PARTY' }),
  addPaymentInstruction: () => pixInstruction(),
  createSubscription: () => ({ url: 'https://hooks.example.com/contract', resources: operationEvents }),
  updateSubscription: () => ({ allowRetry: true }),
};

/** Operations whose body names an account that must exist (404 for an unknown one). */
const BODY_LOOKUPS = new Set(['createQuote', 'createDeposit', 'createWithdrawal', 'createSwap', 'createTransfer']);

export interface Sample {
  op: OperationContract;
  operationId: string;
  method: string;
  path: string;
  body?: Record<string, unknown>;
  /** A valid call answers 404 RESOURCE_NOT_FOUND: it names an unknown id in its path or body. */
  notFound: boolean;
}

export function sample(op: OperationContract): Sample {
  const path = op.path.replace(/\{[^}]+\}/g, () => randomUUID());
  const make = BODIES[op.operationId];
  if (op.hasBody && !make) throw new Error(`contract suite: samples.ts has no request body for ${op.operationId}; add one`);
  return {
    op,
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path,
    body: op.hasBody ? make!() : undefined,
    notFound: op.pathParams.length > 0 || BODY_LOOKUPS.has(op.operationId),
  };
}

export function samples(contract: Contract, keep: (op: OperationContract) => boolean = () => true): Sample[] {
  return contract.operations.filter(keep).map(sample);
}

/** Each top-level field of a body replaced by a value of the wrong JSON type. */
export function wrongTypes(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') out[key] = 42;
    else if (typeof value === 'boolean') out[key] = 'yes';
    else if (Array.isArray(value)) out[key] = { not: 'a list' };
    else out[key] = 'not an object';
  }
  return out;
}
