/**
 * The bad-input corpus: from each route's valid request (surface.ts), every way to make it
 * wrong — a field of the wrong type, missing, extra, huge, odd unicode, negative or 3-decimal
 * amounts; broken JSON and forms; the wrong media type; an oversize body; a path parameter
 * that escapes or is no id; wrong credentials; the wrong method; bad query parameters. Where
 * a mutation might still be valid, the route's own schema decides and only wrong requests are
 * kept: each one must be refused with a 4xx and a well-formed error, and none may change state.
 */
import { ErrorEnvelope } from '../../../server/companion/openapi/api-catalog.js';
import { ErrorBody } from '../../../server/gateway/wire/error.js';
import type { LoopbackClient } from '../../bench/load/http-client.js';
import { eachConcurrently } from '../../bench/load/latency.js';
import { BROKEN_JSON, DOT_SEGMENTS, ODD_BODIES, ODD_VALUES, PATH_TRICKS, WRONG_MEDIA_TYPES, combinedMutations, fieldMutations, jsonText, seededRandom } from './mutations.js';
import type { ErrorShape, RouteTarget, Server } from './surface.js';

export interface BadRequest {
  readonly server: Server;
  readonly method: string;
  /** Path and query, ready to send. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly errors: ErrorShape;
  readonly what: string;
}

const JSON_TYPE = 'application/json';
/** Random bodies with several fields wrong at once, per JSON route. */
const COMBINED_PER_ROUTE = 150;
const FORM_TYPE = 'application/x-www-form-urlencoded';

function fillPath(target: RouteTarget, raw: Readonly<Record<string, string>> = {}): string {
  return target.path.replace(/:(\w+)/g, (_, name: string) => raw[name] ?? encodeURIComponent(target.params[name] ?? 'x'));
}

function queryString(query: Readonly<Record<string, string>> | undefined): string {
  if (!query || Object.keys(query).length === 0) return '';
  return `?${new URLSearchParams(query as Record<string, string>).toString()}`;
}

function validBodyText(target: RouteTarget): { text?: string; type?: string } {
  const body = target.body;
  if (!body) return {};
  if (body.kind === 'json') return { text: jsonText(body.valid), type: JSON_TYPE };
  if (body.kind === 'form') return { text: new URLSearchParams(body.valid as Record<string, string>).toString(), type: FORM_TYPE };
  return { text: '{}', type: JSON_TYPE };
}

function* bodyMutations(target: RouteTarget): Generator<{ what: string; text: string; type: string }> {
  const body = target.body;
  if (!body) return;
  if (body.kind === 'json') {
    const random = seededRandom(target.path.length * 7919 + target.method.length);
    for (const mutation of [...fieldMutations(body.valid), ...combinedMutations(body.valid, random, COMBINED_PER_ROUTE)]) {
      const text = jsonText(mutation.body);
      // Keep only what the route's schema refuses: anything else might be acted upon.
      if (!body.schema.safeParse(JSON.parse(text)).success) yield { what: mutation.what, text, type: JSON_TYPE };
    }
  } else if (body.kind === 'form') {
    const forms: { what: string; form: Record<string, string> }[] = [];
    for (const field of Object.keys(body.valid)) {
      const { [field]: _removed, ...without } = body.valid;
      forms.push({ what: `${field} missing`, form: without });
      for (const odd of ODD_VALUES) {
        if (typeof odd.value === 'string' || typeof odd.value === 'number') forms.push({ what: `${field}: ${odd.what}`, form: { ...body.valid, [field]: String(odd.value) } });
      }
    }
    for (const { what, form } of forms) {
      if (!body.accepts(form)) yield { what, text: new URLSearchParams(form).toString(), type: FORM_TYPE };
    }
    for (const text of ['%', '%zz=1', '=&=&', 'data', '&&&&', 'data=%E0%A4%A&signature=%', '\u0000=\u0000']) yield { what: `broken form ${text.slice(0, 20)}`, text, type: FORM_TYPE };
  } else {
    for (const odd of [...ODD_BODIES, { what: 'unknown field', value: { surprise: 1 } }, { what: 'amount', value: { amount: 1 } }]) {
      yield { what: odd.what, text: jsonText(odd.value), type: JSON_TYPE };
    }
  }
  if (body.kind !== 'form') for (const broken of BROKEN_JSON) yield { what: `broken JSON: ${broken.what}`, text: broken.text, type: JSON_TYPE };
  const valid = validBodyText(target);
  for (const type of WRONG_MEDIA_TYPES) {
    if (type !== valid.type) yield { what: `media type ${type ?? 'none'}`, text: valid.text ?? '', type: type ?? '' };
  }
  const padding = 'x'.repeat(body.limit + 1024);
  yield body.kind === 'form'
    ? { what: 'oversize form', text: `${valid.text}&padding=${padding}`, type: FORM_TYPE }
    : { what: 'oversize JSON', text: jsonText({ ...(body.kind === 'json' ? body.valid : {}), padding }), type: JSON_TYPE };
}

function* queryMutations(target: RouteTarget): Generator<{ what: string; query: Record<string, string> }> {
  const query = target.query;
  if (!query) return;
  const candidates: { what: string; query: Record<string, string> }[] = [{ what: 'unknown query parameter', query: { ...query.valid, surprise: '1' } }];
  for (const name of Object.keys(query.valid)) {
    const { [name]: _removed, ...without } = query.valid;
    candidates.push({ what: `${name} missing`, query: without });
    for (const odd of ODD_VALUES) {
      // A query past Node's 16 KiB header limit is refused by the HTTP parser, not the app.
      if ((typeof odd.value === 'string' && odd.value.length < 4_096) || typeof odd.value === 'number') {
        candidates.push({ what: `${name}: ${odd.what}`, query: { ...query.valid, [name]: String(odd.value) } });
      }
    }
  }
  for (const candidate of candidates) if (!query.schema.safeParse(candidate.query).success) yield candidate;
}

/** Every bad request for one route. */
export function* badRequests(target: RouteTarget): Generator<BadRequest> {
  const base = { server: target.server, errors: target.errors };
  const path = fillPath(target);
  const valid = validBodyText(target);
  const query = queryString(target.query?.valid);
  const headers = (type: string | undefined, extra: Readonly<Record<string, string>> = target.credentials) => ({
    ...extra,
    ...(type ? { 'Content-Type': type } : {}),
  });
  const label = `${target.method} ${target.path}`;

  for (const mutation of bodyMutations(target)) {
    yield { ...base, method: target.method, path: path + query, headers: headers(mutation.type || undefined), body: mutation.text, what: `${label} — ${mutation.what}` };
  }
  for (const mutation of queryMutations(target)) {
    yield { ...base, method: target.method, path: path + queryString(mutation.query), headers: headers(valid.type), ...(valid.text === undefined ? {} : { body: valid.text }), what: `${label} — query ${mutation.what}` };
  }
  const tricks = target.method === 'GET' ? PATH_TRICKS : [...DOT_SEGMENTS, ...PATH_TRICKS];
  for (const name of Object.keys(target.params).filter((param) => !target.freeTextParams?.includes(param))) {
    for (const trick of tricks) {
      yield {
        ...base,
        method: target.method,
        path: fillPath(target, { [name]: trick }) + query,
        headers: headers(valid.type),
        ...(valid.text === undefined ? {} : { body: valid.text }),
        what: `${label} — :${name} = ${trick.slice(0, 40)}`,
      };
    }
  }
  for (const wrong of target.wrongCredentials) {
    yield { ...base, method: target.method, path: path + query, headers: headers(valid.type, wrong), ...(valid.text === undefined ? {} : { body: valid.text }), what: `${label} — credentials ${JSON.stringify(wrong).slice(0, 60)}` };
  }
  for (const method of target.method === 'PUT' ? ['PATCH'] : ['PATCH', 'PUT']) {
    yield { ...base, method, path: path + query, headers: headers(valid.type), ...(valid.text === undefined ? {} : { body: valid.text }), what: `${label} — method ${method}` };
  }
}

export interface Verdict {
  readonly request: BadRequest;
  readonly problem: string;
}

/** What is wrong with an answer to a bad request, if anything. */
export function judge(request: BadRequest, status: number, contentType: string, body: string): string | undefined {
  if (status < 400 || status >= 500) return `HTTP ${status}: ${body.slice(0, 200)}`;
  if (request.errors === 'page' && contentType.startsWith('text/html')) return undefined;
  if (!contentType.startsWith('application/json')) return `HTTP ${status} with ${contentType || 'no content type'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `HTTP ${status}: the body is not JSON`;
  }
  if (request.errors === 'envelope' || (request.errors === 'page' && request.server === 'companion')) {
    const envelope = ErrorEnvelope.safeParse(parsed);
    const keys = envelope.success ? Object.keys(envelope.data.error).filter((key) => !['code', 'message', 'fields'].includes(key)) : [];
    if (!envelope.success || keys.length > 0 || Object.keys(parsed as object).length !== 1) return `HTTP ${status}: not the error envelope: ${body.slice(0, 200)}`;
    return undefined;
  }
  return ErrorBody.safeParse(parsed).success ? undefined : `HTTP ${status}: not the gateway's error body: ${body.slice(0, 200)}`;
}

/** Sends every request (`concurrency` at a time) and judges every answer. */
export async function sendCorpus(
  client: LoopbackClient,
  origins: Readonly<Record<Server, string>>,
  corpus: readonly BadRequest[],
  concurrency: number,
): Promise<{ verdicts: Verdict[]; statuses: Map<number, number> }> {
  const verdicts: Verdict[] = [];
  const statuses = new Map<number, number>();
  await eachConcurrently(corpus, concurrency, async (request) => {
    try {
      const reply = await client.send(request.method, origins[request.server] + request.path, request.body, { ...request.headers });
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      const contentType = String(reply.headers['content-type'] ?? '');
      const problem = judge(request, reply.status, contentType, reply.body);
      if (problem) verdicts.push({ request, problem });
    } catch (error) {
      verdicts.push({ request, problem: `no answer: ${(error as Error).message}` });
    }
  });
  return { verdicts, statuses };
}
