// The one module that loads the document and compiles its validators, once, at start-up.
// The mock (request and response checks) and the contract suite both import it.
import { DEFAULT_DOCUMENT_PATH, isObject, loadDocument, type OpenApiDocument } from './document';
import { bodyChecker, buildOperations, validatorKey, type OperationContract, type ResponseCheck } from './operations';
import { schemaKey } from './named-schemas';
import { loadPrecompiled } from './precompiled';
import { createCompiler, type FieldError, type Mode } from './validators';
import { webhookSchemas } from './webhooks';

export type { FieldError, Mode, OpenApiDocument, OperationContract, ResponseCheck };
export type { RequestParts, RequestCheck, ResponseContract } from './operations';

export interface Contract {
  document: OpenApiDocument;
  operations: OperationContract[];
  byId: Map<string, OperationContract>;
  /** Validates a value against `components.schemas[name]`. */
  checkSchema(name: string, value: unknown): ResponseCheck;
  /** Validates a webhook payload against the `webhooks` entry of that event type. */
  checkWebhook(eventType: string, payload: unknown): ResponseCheck;
  webhookEvents: string[];
}

export interface LoadOptions {
  /**
   * Use the validators `npm run build` generated for this document (spec/contract/standalone.ts)
   * when they match it; otherwise, or when false, compile them now. The mock's `serve` sets it.
   */
  precompiled?: boolean;
}

export function loadContract(documentPath: string = DEFAULT_DOCUMENT_PATH, options: LoadOptions = {}): Contract {
  const precompiled = options.precompiled ? loadPrecompiled(documentPath) : undefined;
  const document = precompiled?.document ?? loadDocument(documentPath);
  const compiler = createCompiler(document, precompiled);
  const operations = buildOperations(document, compiler);
  const byId = new Map(operations.map((op) => [op.operationId, op]));

  const schemaChecks = new Map<string, (value: unknown) => ResponseCheck>();

  const webhookChecks = new Map<string, (value: unknown) => ResponseCheck>();
  for (const [event, schema] of webhookSchemas(document))
    webhookChecks.set(event, bodyChecker(compiler, schema, validatorKey('webhook', event)));

  return {
    document,
    operations,
    byId,
    webhookEvents: [...webhookChecks.keys()],
    checkSchema(name, value) {
      let check = schemaChecks.get(name);
      if (!check) {
        const schemas = document.components.schemas;
        if (!isObject(schemas) || !(name in schemas)) throw new Error(`fos-mock: no schema named ${name} in the document`);
        check = bodyChecker(compiler, { $ref: `#/components/schemas/${name}` }, schemaKey(name));
        schemaChecks.set(name, check);
      }
      return check(value);
    },
    checkWebhook(eventType, payload) {
      const check = webhookChecks.get(eventType);
      if (!check) return { errors: [{ field: 'eventType', message: `${eventType} is not a webhook of the document` }], drift: [] };
      return check(payload);
    },
  };
}
