/**
 * The OpenAPI 3.1 document of the companion, generated from the route catalog's zod schemas:
 * requests inline, answers as `components.schemas` named after the catalog's views.
 */
import * as z from 'zod';
import { DEFAULT_BODY_LIMIT } from '../config.js';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../http/idempotency-keys.js';
import type { ApiOperation, ApiResponse } from './api-catalog.js';
import { API, TAGS, VIEWS } from './api-catalog.js';

type JsonSchema = Record<string, unknown>;

// zod's date-time pattern says nothing `format` does not, at length; a query integer's pattern
// is how its text is read (queryInteger), not what a client sends.
function dropRedundantPattern({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.format === 'date-time' || jsonSchema.type === 'integer') delete jsonSchema.pattern;
}

// Requests are documented as clients write them (before transforms); unrepresentable parts
// (refinements) become unconstrained rather than failing the whole document.
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', override: dropRedundantPattern });
  return json;
}

/** A body is required when its schema requires a field (a client then cannot forget it). */
function requestBody(schema: z.ZodType) {
  const json = schemaOf(schema, 'input');
  return { required: Array.isArray(json.required) && json.required.length > 0, content: { 'application/json': { schema: json } } };
}

const COMPONENT = '#/components/schemas/';
const viewNames = new Map<z.ZodType, string>(Object.entries(VIEWS).map(([name, schema]) => [schema, name]));

/** The views as answers are sent (output), views inside views referenced by name. */
function viewSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(VIEWS)) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (name) => COMPONENT + name,
    override: dropRedundantPattern,
  });
  return Object.fromEntries(Object.entries(schemas).map(([name, { $id: _id, $schema: _dialect, ...schema }]) => [name, schema as JsonSchema]));
}

let views: Record<string, JsonSchema> | undefined;

/** An answer's schema: its view's name (a view not in VIEWS is written out; a test forbids it). */
const answerSchema = (schema: z.ZodType): JsonSchema => {
  const name = viewNames.get(schema);
  return name ? { $ref: COMPONENT + name } : schemaOf(schema, 'output');
};

const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: `${COMPONENT}Error` } } } });

function answer(response: ApiResponse) {
  switch (response.kind) {
    case 'json':
      return { description: response.description, content: { 'application/json': { schema: answerSchema(response.schema) } } };
    case 'problem':
      return errorAnswer(response.description);
    case 'content':
      return { description: response.description, content: Object.fromEntries(response.contentTypes.map((type) => [type, { schema: contentSchema(type) }])) };
    case 'empty':
      return { description: response.description };
  }
}

/** Text as text, a file (a PDF, a ZIP) as bytes: what a generated client gives back (a string, a Blob). */
const contentSchema = (type: string) => (type.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' });

/** Every merchant POST takes an Idempotency-Key (app.ts mounts it where they live). */
export const takesIdempotencyKey = (operation: ApiOperation) => operation.method === 'post' && operation.access === 'admin';

const idempotencyKey = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Sent again with the same request, the first answer comes back (status and body, with Idempotent-Replayed: true) and nothing runs twice; kept 24 h. ' +
    'Only answers that may have changed something are kept (2xx, 5xx): a 4xx refusal changed nothing and frees the key, so the request sent again, corrected or not, is checked again. One key per operation, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

const idempotencyRefusals: Readonly<Record<number, string>> = {
  409: 'idempotency_key_in_use: a request with this Idempotency-Key is still running',
  422: 'idempotency_key_reused: this Idempotency-Key was used for another request',
};

function parameters(operation: ApiOperation) {
  const pathParams = [...operation.path.matchAll(/:(\w+)/g)].map(([, name = '']) => {
    const schema = operation.params?.[name];
    return { name, in: 'path', required: true, schema: schema ? schemaOf(schema, 'input') : { type: 'string' } };
  });
  const query = operation.query ? schemaOf(operation.query, 'input') : undefined;
  const properties = (query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query?.required ?? []) as string[]);
  const queryParams = Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
  const headers = Object.entries(operation.headers ?? {}).map(([name, schema]) => ({ name, in: 'header', required: false, schema: schemaOf(schema, 'input') }));
  return [...pathParams, ...queryParams, ...headers, ...(takesIdempotencyKey(operation) ? [idempotencyKey] : [])];
}

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'string', pattern: '^\\d+$' } } };
const inUseRetryAfter = { 'Retry-After': { description: 'With idempotency_key_in_use: seconds before sending it again', schema: retryAfter['Retry-After'].schema } };
const location = { Location: { description: 'Where to go next', schema: { type: 'string', format: 'uri-reference' } } };
const unauthorized = {
  ...errorAnswer('unauthorized: the admin token is missing or wrong'),
  headers: { 'WWW-Authenticate': { description: 'Bearer realm="payform"', schema: { type: 'string' } } },
};

/** What comes as a file, named in Content-Disposition: exports, receipts. Pages and scripts do not. */
const FILES = new Set(['text/csv', 'application/pdf', 'application/zip']);
const contentDisposition = {
  'Content-Disposition': { description: 'The file\'s name: attachment; filename="orders-2026-11-01-to-2026-11-30.csv" (a receipt\'s page: inline)', schema: { type: 'string' } },
};

/** Headers an answer of this status comes with, whatever the route. */
function headersOf(status: number, response: ApiResponse): Record<string, unknown> | undefined {
  if (status === 429 || status === 503) return retryAfter;
  if (status === 303 && response.kind === 'empty') return location;
  if (response.kind === 'content' && response.contentTypes.some((type) => FILES.has(type))) return contentDisposition;
  return undefined;
}

/** Every route refuses input it cannot take so, the query of one that takes none included. */
const invalidRequest = errorAnswer('invalid_request: a field, parameter or the body is missing or wrong; error.fields names each, with the reason');
/** The admin token's guard: a client sending wrong tokens is refused for a while (one that sent the right token lately still passes). */
const wrongTokens = { ...errorAnswer('rate_limited: too many wrong admin tokens from this client, which is refused until Retry-After; a client that sent the right token in the last 24 hours still passes'), headers: retryAfter };

// A 5xx under an Idempotency-Key is kept like a 2xx (the gateway may have been reached): the
// same key gets it again for 24 h, so a retry loop on the key alone would never end — but for
// what the gateway never took on an order (idempotency-keys.ts, `notTaken`).
const SERVER_ERROR = 'The gateway or the ledger could not be reached, or the request was interrupted; try again after Retry-After';
const KEPT_SERVER_ERROR =
  'The gateway or the ledger could not be reached, or the request was interrupted. The answer is kept under the Idempotency-Key (sent again, it comes back with Idempotent-Replayed): look at the order, and if nothing happened send the request with a new key. ' +
  "An order's operation the gateway never took (gateway_unavailable, gateway_busy, gateway_credentials, not_the_gateway) is not kept: the same key runs it again (after Retry-After, where one is given)";

/** What every route that reads a JSON body refuses before reading it (http/guards.ts). */
const bodyRefusals = (bodyLimitBytes: number) => ({
  413: errorAnswer(`payload_too_large: the body is over this companion’s limit, ${bodyLimitBytes} bytes (its bodyLimitBytes option)`),
  415: errorAnswer('unsupported_media_type, unsupported_charset or unsupported_encoding: the body is not sent as application/json, in UTF-8, unencoded'),
});

function responses(operation: ApiOperation, bodyLimitBytes: number) {
  const idempotent = takesIdempotencyKey(operation);
  const replayed = { [REPLAYED_HEADER]: { description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } } };
  const documented = Object.fromEntries(
    Object.entries(operation.responses).map(([code, response]) => {
      const status = Number(code);
      const headers = { ...headersOf(status, response), ...(idempotent && status < 300 ? replayed : {}) };
      return [code, { ...answer(response), ...(Object.keys(headers).length > 0 ? { headers } : {}) }];
    }),
  );
  const refusals = idempotent
    ? Object.fromEntries(
        Object.entries(idempotencyRefusals).map(([status, text]) => {
          const described = operation.responses[Number(status)]?.description;
          return [status, { ...errorAnswer(described ? `${described}; or ${text}` : text), ...(status === '409' ? { headers: inUseRetryAfter } : {}) }];
        }),
      )
    : {};
  const serverError = idempotent
    ? { ...errorAnswer(KEPT_SERVER_ERROR), headers: { ...retryAfter, ...replayed } }
    : { ...errorAnswer(SERVER_ERROR), headers: retryAfter };
  return {
    400: invalidRequest,
    ...(operation.access === 'admin' ? { 429: wrongTokens } : {}),
    ...(operation.body ? bodyRefusals(bodyLimitBytes) : {}),
    ...documented,
    ...refusals,
    ...(operation.access === 'admin' ? { 401: unauthorized } : {}),
    '4XX': errorAnswer('Bad input or a refusal, in the error envelope'),
    '5XX': serverError,
  };
}

/** `bodyLimitBytes`: the serving companion's (the default when the document is read without one). */
export function openApiDocument(serverUrl: string, { bodyLimitBytes = DEFAULT_BODY_LIMIT }: { readonly bodyLimitBytes?: number } = {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of API) {
    const path = operation.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][operation.method] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.access === 'admin' ? { security: [{ adminToken: [] }] } : { security: [] }),
      parameters: parameters(operation),
      ...(operation.body ? { requestBody: requestBody(operation.body) } : {}),
      ...(operation.method === 'post' && operation.path === '/webhooks/gateway'
        ? {
            requestBody: {
              required: true,
              content: {
                'application/x-www-form-urlencoded': {
                  schema: { type: 'object', required: ['data', 'signature'], properties: { data: { type: 'string' }, signature: { type: 'string' } } },
                },
              },
            },
          }
        : {}),
      responses: responses(operation, bodyLimitBytes),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'payform companion',
      version: '1',
      description:
        'The merchant’s server for <pay-form>: checkout sessions, payments, webhooks and the back office. Also served, outside this document: GET /metrics (Prometheus, its own bearer token, when configured), the back-office pages (when enabled) and CORS preflights of the checkout routes. ' +
        'An /api/ operation takes the query parameters and body fields listed here and no other: one it does not list is 400 invalid_request naming it (fields: { "amount": "is not allowed" }), before anything runs. ' +
        'Every answer carries X-Request-Id, made by the companion or by the server it is mounted in (one a client sends is not taken), which the operator’s log line of that request names: quote it when asking about an answer.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token: PAYFORM_ADMIN_TOKEN (adminToken when mounted)' } },
      schemas: (views ??= viewSchemas()),
    },
    paths,
  };
}
