// The control API's document (spec/control-openapi.yaml), loaded and compiled by the same
// module as the service document: the control routes are built from it and validated by it.
import { loadContract, type Contract } from '../../spec/contract';
import { isObject, type JsonObject } from '../../spec/contract/document';
import { projectPath } from '../../spec/project-root';

export const CONTROL_DOCUMENT_PATH = projectPath('spec', 'control-openapi.yaml');

let compiled: Contract | undefined;

/** Compiled once per process: the document is static, and compiling is the slow part of start-up. */
export function controlContract(precompiled = false): Contract {
  return (compiled ??= loadContract(CONTROL_DOCUMENT_PATH, { precompiled }));
}

/**
 * The service-document schema a control response stands for (`x-public-schema` on the
 * component its success response refers to): Operation, Account, Beneficiary.
 */
export function publicSchemaOf(contract: Contract, path: string, method: string): string | undefined {
  const doc = contract.document;
  const operation = (doc.paths[path] as JsonObject | undefined)?.[method];
  if (!isObject(operation) || !isObject(operation.responses)) return undefined;
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!status.startsWith('2') || !isObject(response) || !isObject(response.content)) continue;
    const media = response.content['application/json'];
    const ref = isObject(media) && isObject(media.schema) ? media.schema.$ref : undefined;
    if (typeof ref !== 'string') continue;
    const schema = (doc.components.schemas as JsonObject)[ref.replace('#/components/schemas/', '')];
    if (isObject(schema) && typeof schema['x-public-schema'] === 'string') return schema['x-public-schema'];
  }
  return undefined;
}
