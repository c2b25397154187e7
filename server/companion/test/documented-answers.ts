/**
 * Every answer a test stack receives, checked against the route catalog (the OpenAPI document's
 * source): a JSON answer must match the view its status documents, an error the envelope. The
 * handlers build their answers typed by the same views; this proves the values fit too (an
 * empty string where an ISO time is promised, an enum value the schema lacks).
 */
import * as z from 'zod';
import { API, ErrorEnvelope } from '../openapi/api-catalog.js';
import type { ApiOperation } from '../openapi/api-catalog.js';

const ROUTES = API.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`),
  // `/api/changes/stream` before a `/api/changes/:x` that would also match.
  params: operation.path.split(':').length,
})).sort((a, b) => a.params - b.params);

export function documentedOperation(method: string, path: string): ApiOperation | undefined {
  const bare = path.split(/[?#]/)[0] ?? '';
  return ROUTES.find((route) => route.operation.method === method.toLowerCase() && route.pattern.test(bare))?.operation;
}

/** Why the answer is not what the document says, or undefined when it is (or the route is not documented). */
export async function undocumentedAnswer(method: string, path: string, response: Response): Promise<string | undefined> {
  const operation = documentedOperation(method, path);
  if (!operation) return undefined;
  const where = `${method} ${(path.split('?')[0] ?? '').slice(0, 80)} → ${response.status}`;
  const documented = operation.responses[response.status];
  if (!documented && response.status < 400) return `${where}: status not documented`;
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  const schema = documented?.kind === 'json' ? documented.schema : documented === undefined || documented.kind === 'problem' ? ErrorEnvelope : undefined;
  if (!schema) return json ? `${where}: JSON where the document says ${documented?.kind}` : undefined;
  if (!json) return `${where}: ${response.headers.get('content-type')} where the document says JSON`;
  const body: unknown = await response.clone().json();
  const result = schema.safeParse(body);
  if (!result.success) return `${where}: ${z.prettifyError(result.error)}`;
  const extra = strippedKeys(body, result.data, '');
  return extra.length === 0 ? undefined : `${where}: fields the document does not have (additionalProperties is false): ${extra.join(', ')}`;
}

/** Keys of `sent` that parsing dropped: zod strips what a view lacks, the document forbids it. */
function strippedKeys(sent: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((item, index) => strippedKeys(item, parsed[index], `${path}[${index}]`));
  if (!isRecord(sent) || !isRecord(parsed)) return [];
  return Object.entries(sent).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key;
    return key in parsed ? strippedKeys(value, parsed[key], at) : [at];
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
