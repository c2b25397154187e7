/** The OpenAPI 3.1 document of the companion, generated from the route catalog's zod schemas. */
import * as z from 'zod';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../http/idempotency-keys.js';
import type { ApiOperation } from './api-catalog.js';
import { API, ErrorEnvelope } from './api-catalog.js';

type JsonSchema = Record<string, unknown>;

// Requests are documented as clients write them (before transforms); unrepresentable parts
// (refinements) become unconstrained rather than failing the whole document.
const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;

/** Every merchant POST takes an Idempotency-Key (app.ts mounts it where they live). */
export const takesIdempotencyKey = (operation: ApiOperation) => operation.method === 'post' && operation.access === 'admin';

const idempotencyKey = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description: 'Sent again with the same request, the first answer comes back (status and body) and nothing runs twice; kept 24 h. One key per operation, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

const idempotencyRefusals: Readonly<Record<number, string>> = {
  409: 'idempotency_key_in_use: a request with this Idempotency-Key is still running',
  422: 'idempotency_key_reused: this Idempotency-Key was used for another request',
};

function parameters(operation: ApiOperation) {
  const pathParams = [...operation.path.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = operation.query ? schemaOf(operation.query, 'input') : undefined;
  const properties = (query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query?.required ?? []) as string[]);
  const queryParams = Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
  return [...pathParams, ...queryParams, ...(takesIdempotencyKey(operation) ? [idempotencyKey] : [])];
}

function responses(operation: ApiOperation) {
  const idempotent = takesIdempotencyKey(operation);
  const replayed = { [REPLAYED_HEADER]: { description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } } };
  const documented = Object.fromEntries(
    Object.entries(operation.responses).map(([status, response]) => {
      const type = response.contentType ?? 'application/json';
      const content = type === 'application/json' ? { schema: response.schema ? schemaOf(response.schema, 'output') : { type: 'object' } } : {};
      return [status, { description: response.description, ...(idempotent && Number(status) < 300 ? { headers: replayed } : {}), content: { [type]: content } }];
    }),
  );
  const error = { description: 'An error in the envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const refusals = idempotent
    ? Object.fromEntries(
        Object.entries(idempotencyRefusals).map(([status, text]) => {
          const described = operation.responses[Number(status)]?.description;
          return [status, { ...error, description: described ? `${described}; or ${text}` : text }];
        }),
      )
    : {};
  return { ...documented, ...refusals, '4XX': error };
}

export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of API) {
    const path = operation.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][operation.method] = {
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.access === 'admin' ? { security: [{ adminToken: [] }] } : { security: [] }),
      parameters: parameters(operation),
      ...(operation.body ? { requestBody: { required: false, content: { 'application/json': { schema: schemaOf(operation.body, 'input') } } } } : {}),
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
      responses: responses(operation),
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'payform companion', version: '1', description: 'The merchant’s server for <pay-form>: checkout sessions, payments, webhooks and the back office.' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } },
      schemas: { Error: schemaOf(ErrorEnvelope, 'output') },
    },
    paths,
  };
}
