/**
 * Records what the sandbox is asked and answers, for GET /_sandbox/requests and the page at
 * /_sandbox: every request to the interface (/api/v1) and every request that may change
 * something (any method but GET and HEAD). The control plane's own reads and the pages a
 * browser loads are left out, so watching the inspector does not fill it.
 *
 * What the caller sent is masked as it is recorded: its headers, query and body go through the
 * redaction the companion's logs use (server/gateway/redact.ts) — credential headers and card
 * fields replaced, card-number digit runs masked wherever they are — and a URL's password is
 * shown as the sandbox's log shows it (redaction.ts): a server_url's. A JSON answer is the
 * sandbox's own text, made from the state it keeps anyway (never a card number or CVV a field
 * carried): it is kept as the text that was sent and masked the same way when the inspector is
 * first read, so a payment does not pay for a masking walk over its answer that nobody may read.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { formatTimestamp } from '@payform/gateway/wire';
import type { SandboxEnv } from '../http/env.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { leniencyNotes, refusalNotes } from './notes.js';
import { inspectorRedact } from './redaction.js';
import type { InspectorNote } from './notes.js';
import type { RecordedRequest, RequestId } from './request-log.js';

/** Longest body text kept per request or answer (masked first, then cut). */
const BODY_KEPT = 16 * 1024;
const ANSWER_HEADERS = ['content-type', 'location', 'retry-after', 'allow'];

export function recordRequests(gateway: SimulatedGateway): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (!isRecorded(c.req.method, c.req.path)) return next();
    const id = gateway.requests.nextId();
    const at = formatTimestamp(gateway.clock.now());
    const startedAt = performance.now();
    const jsonAnswer = keepJsonAnswer(c);
    // The handlers pass it to what they change, so the webhooks that follow can name this request.
    c.set('requestId', id);
    await next();
    try {
      gateway.requests.add(await capture(c, jsonAnswer, { id, at, durationMs: Math.round(performance.now() - startedAt) }));
    } catch (error) {
      // The answer goes out whatever happens to its record.
      gateway.config.log(`sandbox inspector could not record ${c.req.method} ${c.req.path}: ${String(error)}`);
    }
  };
}

function isRecorded(method: string, path: string): boolean {
  return path.startsWith('/api/v1/') || (method !== 'GET' && method !== 'HEAD');
}

/** `c.body` as `c.json` calls it, untyped by the answer's shape. */
type RawRespond = (data: string | null, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => Response;

/** The last `c.json` answer of a request and the JSON text it sent. */
interface JsonAnswer {
  answer: Response | undefined;
  text: string;
}

/**
 * The JSON text of the request's last `c.json` answer. Reading the body back from the Response
 * instead would clone it (undici's Response and a web stream tee) and make @hono/node-server
 * send it through the stream rather than as the string it is: a tenth of the sandbox's CPU a
 * payment. The text is the answer as it was sent, whatever later becomes of the object (a
 * delivery listed by the control plane goes on changing). Any other answer is read back
 * (readAnswer).
 */
function keepJsonAnswer(c: Context<SandboxEnv>): JsonAnswer {
  const kept: JsonAnswer = { answer: undefined, text: '' };
  // What `c.json` does, with the text made once for the answer and the record alike.
  c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => {
    const text = JSON.stringify(object) as string | undefined;
    // `c.json(undefined)` sends no body: recorded as null.
    kept.text = text ?? 'null';
    kept.answer = (c.body as RawRespond)(text ?? null, arg, { 'Content-Type': 'application/json', ...headers });
    return kept.answer;
  }) as typeof c.json;
  return kept;
}

/**
 * The record of a request that has been answered: what it sent, masked now, and how to describe
 * the answer once the inspector is read (a JSON answer's text masked then, another one now).
 */
async function capture(c: Context<SandboxEnv>, json: JsonAnswer, start: { id: RequestId; at: string; durationMs: number }): Promise<() => RecordedRequest> {
  const answer = c.res;
  const status = answer.status;
  const leniency = c.get('leniency');
  const warnings = c.get('warnings') ?? [];
  // Another answer is read back and masked before anything else is awaited: the record is the
  // answer as it was sent.
  const answered = json.answer === answer ? undefined : { body: inspectorRedact(await readAnswer(answer)), headers: answerHeaders(answer) };
  const sent = {
    id: start.id,
    at: start.at,
    method: c.req.method,
    path: inspectorRedact(c.req.path) as string,
    query: inspectorRedact(c.req.query()) as Record<string, unknown>,
    headers: inspectorRedact(requestHeaders(c)) as Record<string, unknown>,
    body: await requestBody(c, status),
  };
  const text = json.text;
  return () => {
    const body = answered ? answered.body : inspectorRedact(JSON.parse(text));
    const notes: InspectorNote[] = [...leniencyNotes(leniency), ...warnings, ...refusalNotes(status, body, leniency)];
    return {
      ...sent,
      status,
      // A HEAD's answer is the GET's without its body (Hono drops it after the handler): the notes
      // read the body the handler made, the record shows what was sent.
      response: { headers: inspectorRedact(answered ? answered.headers : answerHeaders(answer)) as Record<string, string>, body: sent.method === 'HEAD' ? null : cut(body) },
      duration_ms: start.durationMs,
      notes: inspectorRedact(notes) as InspectorNote[],
    };
  };
}

/** The answer's headers an integrator cares about. */
function answerHeaders(answer: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ANSWER_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}

/**
 * The request's headers by lower-case name. Served over HTTP they are Node's own: asking Hono's
 * Request for all of them builds a web Headers (undici) for every request, which nothing else
 * on a payment's path needs. A repeated header is one value, joined with `, ` as Headers does.
 */
function requestHeaders(c: Context<SandboxEnv>): Record<string, string> {
  const incoming = c.env?.incoming;
  if (!incoming) return c.req.header();
  // No prototype: a header may be called `__proto__`.
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    // HTTP/2's pseudo-headers (`:path`) are not headers.
    if (name.startsWith(':')) continue;
    const value = raw[i + 1]!;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/** The request body as recorded: the JSON readJsonBody parsed when it did, else read as text. */
async function requestBody(c: Context<SandboxEnv>, status: number): Promise<unknown> {
  // A 413 was refused before its body was read: it is not read now either.
  if (status === 413) return '[larger than the body limit: not read]';
  const parsed = c.get('jsonBody');
  if (parsed !== undefined) return inspectorRedact(parsed);
  return readable(await c.req.text().catch(() => ''), c.req.header('content-type'));
}

const JSON_ESCAPE = /\\u([\da-f]{4})/gi;

/** A body as a person reads it: parsed JSON or form fields when it is one, masked. */
function readable(text: string, contentType = ''): unknown {
  if (text === '') return null;
  if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
    try {
      return inspectorRedact(JSON.parse(text));
    } catch {
      // Not JSON after all: kept as text, its escapes read (`\u0034` is a 4 to the mask, as to JSON).
      return cut(inspectorRedact(text.replace(JSON_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))));
    }
  }
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) return inspectorRedact(Object.fromEntries(new URLSearchParams(text)));
  return cut(inspectorRedact(text));
}

/** Long text cut after masking, so no half card number is left unmasked. */
function cut(value: unknown): unknown {
  return typeof value === 'string' && value.length > BODY_KEPT ? `${value.slice(0, BODY_KEPT)}…` : value;
}

/** The answer's body: JSON parsed, other text kept, documents (PDF, ZIP, pages) described. */
async function readAnswer(answer: Response): Promise<unknown> {
  const type = answer.headers.get('content-type') ?? '';
  if (answer.body === null) return null;
  if (!/json|^text\/plain/i.test(type)) return `[${type || 'body'}]`;
  const text = await answer.clone().text().catch(() => '');
  if (/json/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Kept as text.
    }
  }
  return text;
}

/** A coerced value of a card or secret field is replaced, like the field itself would be. */
