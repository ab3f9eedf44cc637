// The one module that loads the document and compiles its validators, once, at start-up.
// The mock (request and response checks) and the contract suite both import it.
import { DEFAULT_DOCUMENT_PATH, isObject, loadDocument, type Json, type JsonObject, type OpenApiDocument } from './document';
import { bodyChecker, buildOperations, type OperationContract, type ResponseCheck } from './operations';
import { createCompiler, type FieldError, type Mode } from './validators';

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

export function loadContract(documentPath: string = DEFAULT_DOCUMENT_PATH): Contract {
  const document = loadDocument(documentPath);
  const compiler = createCompiler(document);
  const operations = buildOperations(document, compiler);
  const byId = new Map(operations.map((op) => [op.operationId, op]));

  const schemaChecks = new Map<string, (value: unknown) => ResponseCheck>();
  const checkerFor = (schema: Json) => bodyChecker(compiler, schema);

  const webhookChecks = new Map<string, (value: unknown) => ResponseCheck>();
  const webhooks = isObject(document.webhooks) ? document.webhooks : {};
  for (const [event, item] of Object.entries(webhooks)) {
    const post = isObject(item) && isObject(item.post) ? item.post : undefined;
    const body = post && isObject(post.requestBody) ? post.requestBody : undefined;
    const media = body && isObject(body.content) ? (body.content['application/json'] as JsonObject | undefined) : undefined;
    if (media?.schema) webhookChecks.set(event, checkerFor(media.schema));
  }

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
        check = checkerFor({ $ref: `#/components/schemas/${name}` });
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
