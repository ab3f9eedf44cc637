// One contract per operation of the document: how to check a request and each response.
import type { ValidateFunction } from 'ajv/dist/2020';
import { deref, isObject, type Json, type JsonObject, type OpenApiDocument } from './document';
import { type FieldError, type SchemaCompiler, toFieldErrors } from './validators';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
const MUTATING = new Set(['post', 'put', 'patch']);

export interface RequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

export interface RequestCheck {
  errors: FieldError[];
  /** Query and path values after coercion and defaults (`limit` as a number, default 10). */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

export interface ResponseCheck {
  /** Breaks of the document as written: a failure against any target. */
  errors: FieldError[];
  /** Unknown values of open sets and unknown fields: a failure for the mock, drift for a real service. */
  drift: FieldError[];
}

export interface ResponseContract {
  status: string;
  hasBody: boolean;
  requiredHeaders: string[];
  /** Errors and drift of a body; undefined when the response has no body. */
  check?: (body: unknown) => ResponseCheck;
  /**
   * For a page body (`{data: [items], ...}`): the envelope without its items and one item, checked
   * apart, so a caller that knows an item has not changed since it was checked need not check it
   * again (the mock's stored records). Together they check exactly what `check` does.
   */
  page?: PageContract;
}

export interface PageContract {
  envelope: (body: unknown) => ResponseCheck;
  item: (value: unknown) => ResponseCheck;
}

export interface OperationContract {
  operationId: string;
  method: string;
  /** The document's path template, e.g. `/v1/accounts/{accountId}`. */
  path: string;
  security: boolean;
  mutating: boolean;
  idempotent: boolean;
  hasBody: boolean;
  bodyRequired: boolean;
  pathParams: string[];
  responses: Map<string, ResponseContract>;
  checkRequest(parts: RequestParts): RequestCheck;
  checkResponse(status: number, headers: Record<string, unknown>, body: unknown): ResponseCheck;
  /** The documented response for a status (exact, then `4XX`, then `default`). */
  responseFor(status: number): ResponseContract | undefined;
  /** The status and header half of checkResponse (undocumented status, required headers, X-Request-Id). */
  checkResponseHead(status: number, headers: Record<string, unknown>): FieldError[];
}

interface ParameterObject extends JsonObject {
  name: string;
  in: string;
}

function collectParameters(doc: OpenApiDocument, pathItem: JsonObject, operation: JsonObject): ParameterObject[] {
  const byKey = new Map<string, ParameterObject>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = deref(doc, raw) as ParameterObject;
      byKey.set(`${param.in}:${param.name.toLowerCase()}`, param);
    }
  }
  return [...byKey.values()];
}

function locationSchema(params: ParameterObject[], location: string): Json {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const p of params.filter((param) => param.in === location)) {
    const name = location === 'header' ? p.name.toLowerCase() : p.name;
    properties[name] = p.schema ?? {};
    if (p.required === true) required.push(name);
  }
  return { type: 'object', properties, required };
}

/**
 * Checks a value strictly first: strict passing implies lenient passing, so the lenient
 * validator is compiled only when something fails and must be told apart as drift or error.
 */
export function bodyChecker(compiler: SchemaCompiler, schema: Json, key?: string): (value: unknown) => ResponseCheck {
  const strict = compiler.compile(schema, 'strict', key);
  let lenient: ValidateFunction | undefined;
  return (value) => {
    if (strict(value)) return { errors: [], drift: [] };
    const strictErrors = toFieldErrors('', strict.errors);
    lenient ??= compiler.compile(schema, 'lenient');
    return lenient(value) ? { errors: [], drift: strictErrors } : { errors: toFieldErrors('', lenient.errors), drift: [] };
  };
}

/**
 * The name of one of the document's validators (the key of its precompiled form), e.g.
 * `listAccounts.response.200`. Ajv takes it as the schema's base URI: a bare name keeps the
 * schema's `fos-openapi.json#/…` references resolving to the registered document.
 */
export function validatorKey(...parts: string[]): string {
  return parts.map((part) => part.replace(/[^A-Za-z0-9_-]/g, '_')).join('.');
}

/** The envelope and item checks of a page schema (an object whose `data` is an array of items). */
function pageContract(doc: OpenApiDocument, compiler: SchemaCompiler, schema: Json, key: string): PageContract | undefined {
  const page = deref(doc, schema);
  if (!isObject(page) || !isObject(page.properties)) return undefined;
  const data = deref(doc, page.properties.data);
  if (!isObject(data) || data.type !== 'array' || data.items === undefined) return undefined;
  const envelope: JsonObject = { ...page, properties: { ...page.properties, data: { type: 'array' } } };
  return { envelope: bodyChecker(compiler, envelope, `${key}.envelope`), item: bodyChecker(compiler, data.items, `${key}.item`) };
}

/** A response the document gives no body must send none (204 has none by definition). */
export function unexpectedBody(status: number, body: unknown): boolean {
  return body !== undefined && body !== '' && status !== 204;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function buildOperations(doc: OpenApiDocument, compiler: SchemaCompiler): OperationContract[] {
  const security = Array.isArray(doc.security) && doc.security.length > 0;
  const out: OperationContract[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const pathItem = deref(doc, rawItem) as JsonObject;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      out.push(buildOperation(doc, compiler, path, method, pathItem, operation, security));
    }
  }
  return out;
}

function buildOperation(
  doc: OpenApiDocument,
  compiler: SchemaCompiler,
  path: string,
  method: string,
  pathItem: JsonObject,
  operation: JsonObject,
  globalSecurity: boolean,
): OperationContract {
  const operationId = typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`;
  const params = collectParameters(doc, pathItem, operation);
  const validatePath = compiler.compileParameters(locationSchema(params, 'path'), validatorKey(operationId, 'path'));
  const validateQuery = compiler.compileParameters(locationSchema(params, 'query'), validatorKey(operationId, 'query'));
  const validateHeaders = compiler.compileParameters(locationSchema(params, 'header'), validatorKey(operationId, 'header'));

  const requestBody = deref(doc, operation.requestBody) as JsonObject | undefined;
  const bodySchema = isObject(requestBody?.content)
    ? (requestBody.content['application/json'] as JsonObject | undefined)?.schema
    : undefined;
  // Requests are held to the strict form: a misspelt field or an unknown asset is a 400, not ignored.
  const validateBody = bodySchema ? compiler.compile(bodySchema, 'strict', validatorKey(operationId, 'body')) : undefined;
  const bodyRequired = requestBody?.required === true;

  const responses = new Map<string, ResponseContract>();
  for (const [status, raw] of Object.entries((operation.responses ?? {}) as JsonObject)) {
    const response = deref(doc, raw) as JsonObject;
    const content = isObject(response.content) ? (response.content['application/json'] as JsonObject | undefined) : undefined;
    const headers = isObject(response.headers) ? response.headers : {};
    const requiredHeaders = Object.entries(headers)
      .filter(([, h]) => (deref(doc, h) as JsonObject).required === true)
      .map(([name]) => name.toLowerCase());
    const schema = content?.schema;
    const key = validatorKey(operationId, 'response', status);
    responses.set(status, {
      status,
      hasBody: Boolean(schema),
      requiredHeaders,
      check: schema ? bodyChecker(compiler, schema, key) : undefined,
      page: schema ? pageContract(doc, compiler, schema, key) : undefined,
    });
  }
  const responseFor = (status: number) =>
    responses.get(String(status)) ?? responses.get(`${String(status)[0]}XX`) ?? responses.get('default');
  const checkResponseHead = (status: number, headers: Record<string, unknown>): FieldError[] => {
    const contract = responseFor(status);
    if (!contract) return [{ field: 'status', message: `${status} is not a documented status of ${operationId}` }];
    const errors: FieldError[] = [];
    for (const name of contract.requiredHeaders) {
      if (headers[name] === undefined) errors.push({ field: `header.${name}`, message: 'is required' });
    }
    const requestId = headers['x-request-id'];
    if (requestId !== undefined && !(typeof requestId === 'string' && UUID.test(requestId)))
      errors.push({ field: 'header.x-request-id', message: 'must be a uuid' });
    return errors;
  };

  const opSecurity = operation.security;
  const secured = Array.isArray(opSecurity) ? opSecurity.length > 0 : globalSecurity;
  const headerNames = params.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());

  return {
    operationId,
    method,
    path,
    security: secured,
    mutating: MUTATING.has(method),
    idempotent: headerNames.includes('x-idempotency-key'),
    hasBody: Boolean(bodySchema),
    bodyRequired,
    pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
    responses,
    checkRequest(parts) {
      const pathValues = { ...parts.params };
      const queryValues = { ...parts.query };
      const headerValues: Record<string, unknown> = {};
      for (const name of headerNames) if (parts.headers[name] !== undefined) headerValues[name] = parts.headers[name];
      const errors: FieldError[] = [];
      if (!validatePath(pathValues)) errors.push(...toFieldErrors('path', validatePath.errors));
      if (!validateQuery(queryValues)) errors.push(...toFieldErrors('query', validateQuery.errors));
      if (!validateHeaders(headerValues)) errors.push(...toFieldErrors('header', validateHeaders.errors));
      if (validateBody) {
        if (parts.body === undefined) {
          if (bodyRequired) errors.push({ field: 'body', message: 'is required' });
        } else if (!validateBody(parts.body)) {
          errors.push(...toFieldErrors('body', validateBody.errors));
        }
      }
      return { errors, params: pathValues, query: queryValues };
    },
    responseFor,
    checkResponseHead,
    checkResponse(status, headers, body) {
      const contract = responseFor(status);
      const errors = checkResponseHead(status, headers);
      if (!contract) return { errors, drift: [] };
      let drift: FieldError[] = [];
      if (contract.check) {
        const result = contract.check(body);
        errors.push(...result.errors.map((e) => ({ field: e.field ? `body.${e.field}` : 'body', message: e.message })));
        drift = result.drift.map((e) => ({ field: e.field ? `body.${e.field}` : 'body', message: e.message }));
      } else if (unexpectedBody(status, body)) {
        errors.push({ field: 'body', message: 'must be empty' });
      }
      return { errors, drift };
    },
  };
}
