/**
 * Records what the sandbox is asked and answers, for GET /_sandbox/requests and the page at
 * /_sandbox: every request to the interface (/api/v1) and every request that may change
 * something (any method but GET and HEAD). The control plane's own reads and the pages a
 * browser loads are left out, so watching the inspector does not fill it.
 *
 * Nothing is kept unmasked: headers, query, bodies and notes go through the redaction the
 * companion's logs use (server/gateway/redact.ts) — credential headers and card fields replaced,
 * card-number digit runs masked wherever they are.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { formatTimestamp } from '@payform/gateway/wire';
import { redact } from '@payform/gateway';
import type { SandboxEnv } from '../http/env.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { duringRequest } from './cause.js';
import { leniencyNotes, refusalNotes } from './notes.js';
import type { InspectorNote } from './notes.js';
import type { RecordedRequest } from './request-log.js';

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
    await duringRequest(id, next);
    try {
      gateway.requests.add(await describe(c, jsonAnswer, { id, at, durationMs: Math.round(performance.now() - startedAt) }));
    } catch (error) {
      // The answer goes out whatever happens to its record.
      gateway.config.log(`sandbox inspector could not record ${c.req.method} ${c.req.path}: ${String(error)}`);
    }
  };
}

function isRecorded(method: string, path: string): boolean {
  return path.startsWith('/api/v1/') || (method !== 'GET' && method !== 'HEAD');
}

/** The last `c.json` answer of a request and the object it was made from. */
interface JsonAnswer {
  answer: Response | undefined;
  object: unknown;
}

/**
 * The object the request's last `c.json` answer was made from. Reading the body back from the
 * Response instead would clone it (undici's Response and a web stream tee) and make
 * @hono/node-server send it through the stream rather than as the string it is: a tenth of the
 * sandbox's CPU a payment. Any other answer is read back (readAnswer).
 */
function keepJsonAnswer(c: Context<SandboxEnv>): JsonAnswer {
  const kept: JsonAnswer = { answer: undefined, object: undefined };
  const json = c.json;
  c.json = ((object: unknown, ...rest: unknown[]) => {
    kept.answer = (json as (...args: unknown[]) => Response)(object, ...rest);
    kept.object = object;
    return kept.answer;
  }) as typeof c.json;
  return kept;
}

async function describe(c: Context<SandboxEnv>, json: JsonAnswer, start: { id: number; at: string; durationMs: number }): Promise<RecordedRequest> {
  const answer = c.res;
  // Masked (copied) before anything is awaited, so the record is the answer as it was sent.
  const answerBody = json.answer === answer ? redact(json.object) : redact(await readAnswer(answer));
  const notes: InspectorNote[] = [...leniencyNotes(c.get('leniency')), ...refusalNotes(answer.status, answerBody, c.get('leniency'))];
  const headers: Record<string, string> = {};
  for (const name of ANSWER_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return {
    id: start.id,
    at: start.at,
    method: c.req.method,
    path: redact(c.req.path) as string,
    query: redact(c.req.query()) as Record<string, unknown>,
    headers: redact(requestHeaders(c)) as Record<string, unknown>,
    body: await requestBody(c, answer.status),
    status: answer.status,
    response: { headers: redact(headers) as Record<string, string>, body: cut(answerBody) },
    duration_ms: start.durationMs,
    notes: redact(notes) as InspectorNote[],
  };
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
  if (parsed !== undefined) return redact(parsed);
  return readable(await c.req.text().catch(() => ''), c.req.header('content-type'));
}

/** A body as a person reads it: parsed JSON or form fields when it is one, masked. */
function readable(text: string, contentType = ''): unknown {
  if (text === '') return null;
  if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
    try {
      return redact(JSON.parse(text));
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) return redact(Object.fromEntries(new URLSearchParams(text)));
  return cut(redact(text));
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
