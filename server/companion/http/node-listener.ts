/**
 * The companion as a Node request listener, for a server that is not Hono — Express, Fastify
 * (through @fastify/middie), Koa, or plain node:http: `expressApp.use('/payments', toNodeListener(companion.app))`.
 *
 * The companion's routes carry their base path, and Express hands a middleware mounted at
 * `/payments` only the rest of the path: the listener takes the whole one back from
 * `originalUrl`. A request outside the base path goes on to `next` (Express's next middleware)
 * when there is one. The client's address is the socket's, as when the companion listens itself
 * (`trustProxy` reads X-Forwarded-For the same way).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { CompanionApp } from '../app.js';
import { bodyTakenAnswer, parserFix } from './body-taken.js';
import { securityHeaders } from './browser-policies.js';
import { UnparsedRequests } from './unparsed-requests.js';

export type NodeListener = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

export function toNodeListener(app: CompanionApp): NodeListener {
  const { options, logger } = app.companion.services;
  const fix = parserFix(options.basePath);
  // For the answers written here, outside the app's middleware.
  const security = securityHeaders(options.publicUrl);
  // A Host no URL can hold reaches the adapter past your server's parser: answered in the envelope.
  const listener = getRequestListener((request, env) => app.fetch(request, env), { errorHandler: new UnparsedRequests(() => logger, security).unbuilt });
  // Each setup mistake is an error once; the requests after it are debug lines, not a flood.
  const said = new Set<string>();
  const once = (mistake: string): 'error' | 'debug' => {
    if (said.has(mistake)) return 'debug';
    said.add(mistake);
    return 'error';
  };
  return (incoming, outgoing, next) => {
    const url = (incoming as { originalUrl?: string }).originalUrl ?? incoming.url ?? '/';
    // Mounted at a path of its own outside its base path — `/payments` with no basePath at all,
    // most often: none of its routes can ever be reached there.
    const mountedAt = mountPoint(incoming, url);
    if (mountedAt && !mountedWithin(mountedAt, options.basePath)) {
      const base = options.basePath ? `its basePath "${options.basePath}"` : 'the root, as no basePath is set';
      logger[once('mount')](`the companion is mounted at ${mountedAt}, outside ${base}: mount it at ${options.basePath || 'the root'}, or set basePath to ${mountedAt}`, { url: url.split('?', 1)[0] });
    }
    if (next && !within(url, options.basePath)) return next();
    // The webhook's signature is checked on the body as it came: a body parser that ran first
    // (express.json(), express.urlencoded()) has taken it, and nothing can be read any more.
    if (bodyTaken(incoming)) {
      logger[once('body')](`the request body was read before the companion got it: ${fix}`, { method: incoming.method });
      // A setup mistake its developer meets on the first request: the answer says the fix too.
      const { headers, body } = bodyTakenAnswer(fix);
      outgoing.writeHead(500, { ...security, ...headers });
      outgoing.end(body);
      return;
    }
    incoming.url = url;
    void listener(incoming, outgoing);
  };
}

/**
 * Where the host mounted the listener: Express's `baseUrl`, or what @fastify/middie cut off the
 * front of the path (it keeps the whole one in `originalUrl`, and sets no `baseUrl`).
 */
function mountPoint(incoming: IncomingMessage, whole: string): string | undefined {
  const { baseUrl } = incoming as { baseUrl?: string };
  if (baseUrl !== undefined || incoming.url === undefined || whole === incoming.url) return baseUrl;
  const path = whole.split('?', 1)[0]!;
  const rest = incoming.url.split('?', 1)[0]!;
  if (rest === '/') return path.replace(/\/$/, '') || undefined;
  return path.endsWith(rest) ? path.slice(0, path.length - rest.length) || undefined : undefined;
}

function within(url: string, basePath: string): boolean {
  const path = url.split('?', 1)[0]!;
  return basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
}

/** Whether routes under `basePath` can be reached through a mount at `mountedAt`: at it, under it, or above it. */
function mountedWithin(mountedAt: string, basePath: string): boolean {
  return basePath === '' ? mountedAt === '/' : within(mountedAt, basePath) || within(basePath, mountedAt);
}

/** The body was announced and has been read, and no one kept it as `rawBody` (which @hono/node-server reads). */
function bodyTaken(incoming: IncomingMessage): boolean {
  const announced = incoming.headers['transfer-encoding'] !== undefined || (incoming.headers['content-length'] ?? '0').trim() !== '0';
  const kept = (incoming as { rawBody?: unknown }).rawBody instanceof Buffer;
  return announced && !kept && (incoming.readableEnded || incoming.readableDidRead);
}
