/**
 * The real backend (checkout-backend.ts) in web-test-runner's / web-dev-server's dev server, for
 * the browser tests and the screenshot script: a plugin that starts it once the server knows its
 * own origin and stops it with the server, and these routes:
 *
 * - `/api/checkout/*` is passed to the `shop` companion, so the widget finds its companion at the
 *   origin that served its script, as it does in production (the companion serves the widget);
 * - `POST /__fixture/sessions` `{ merchant, ...session }` → that merchant's
 *   `POST /api/checkout/sessions` with its admin token (which never reaches the browser), answered
 *   with the created session and `companion_url`;
 * - `POST /__fixture/close` `{ id }` → the `shop` companion's `DELETE /api/checkout/sessions/:id`;
 * - `POST /__fixture/3ds` `{ url, result }` → the button of the sandbox's 3-D Secure page at `url`;
 * - `POST /__fixture/clock` `{ advance_seconds }` → the sandbox's `POST /_sandbox/clock`;
 * - `/__next-without-options/api/checkout/*`: the `shop` companion as a Next.js route handler that
 *   does not export OPTIONS would have it: Next answers the browser's CORS preflights itself (204,
 *   no CORS headers), everything else is passed on (reached on another origin than the page's:
 *   `localhost` for `127.0.0.1`);
 * - `POST /__fixture/module` `{ path, answer }` → what the dev server does from then on with the
 *   requests (GET and HEAD) for a module of the widget (`/widget/checkout/paying.ts`, as the dev server names it)
 *   or a file of its build (`/widget/dist/chunks/paying.js`): `hold` them, as a slow
 *   network would, until the answer is `serve` (the default), `fail` (a 503, as from a server
 *   that lacks the file) or `drop` (the connection closed unanswered, as for a customer whose
 *   network went down); answered with `held`, how many requests for it are held at that moment.
 *
 * Only loopback clients are served: the dev server listens on every interface.
 */
import { Buffer } from 'node:buffer';
import type { AddressInfo } from 'node:net';
import type { Context, Middleware, Plugin } from '@web/dev-server-core';
import { startCheckoutBackend, type CheckoutBackend } from './checkout-backend.js';
import type { Merchant } from './checkout-fixture.js';

// Hop-by-hop headers and the ones fetch redoes itself (it decodes the body, so its length changes).
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/** A fixture route asked for something it cannot do. */
class FixtureMisuse extends Error {}

async function readBody(ctx: Context): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readJson(ctx: Context): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse((await readBody(ctx)).toString('utf8') || '{}');
  } catch {
    throw new FixtureMisuse('the fixture body is not JSON');
  }
  if (typeof body !== 'object' || body === null) throw new FixtureMisuse('the fixture body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Answers `ctx` with `response`, as the browser would have had it from the server itself. */
async function relay(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    if (!NOT_FORWARDED.has(name)) ctx.set(name, value);
  });
  ctx.body = Buffer.from(await response.arrayBuffer());
}

/** Passes the browser's request on to `origin` unchanged. */
async function forward(ctx: Context, origin: string): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.request.headers)) {
    if (!NOT_FORWARDED.has(name) && value !== undefined) headers.set(name, String(value));
  }
  const body = ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : new Uint8Array(await readBody(ctx));
  await relay(ctx, await fetch(origin + ctx.url, { method: ctx.method, headers, body, redirect: 'manual' }));
}

const isLoopback = (address: string | undefined): boolean => address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

const WITHOUT_OPTIONS = '/__next-without-options';

type ModuleAnswer = 'hold' | 'fail' | 'drop' | 'serve';

/** The widget's modules the tests hold back or fail (`/__fixture/module`), and the requests waiting for them. */
class ModuleAnswers {
  #answers = new Map<string, Exclude<ModuleAnswer, 'serve'>>();
  #waiting: (() => void)[] = [];
  /** How many requests for each path are held now. */
  #held = new Map<string, number>();

  set(path: string, answer: ModuleAnswer): void {
    if (answer === 'serve') this.#answers.delete(path);
    else this.#answers.set(path, answer);
    this.#release();
  }

  /** Serves everything again (the server stops): no request is left waiting. */
  clear(): void {
    this.#answers.clear();
    this.#release();
  }

  /** Once `path` is no longer held: how its requests fail, if they do. */
  async fails(path: string): Promise<'fail' | 'drop' | undefined> {
    while (this.#answers.get(path) === 'hold') {
      this.#held.set(path, this.held(path) + 1);
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
      this.#held.set(path, this.held(path) - 1);
    }
    return this.#answers.get(path) as 'fail' | 'drop' | undefined;
  }

  /** How many requests for `path` are held now. */
  held(path: string): number {
    return this.#held.get(path) ?? 0;
  }

  // Every waiting request looks again at its path's answer.
  #release(): void {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
}

function backendRoutes(backend: () => Promise<CheckoutBackend> | undefined, modules: ModuleAnswers): Middleware {
  const fixtures: Record<string, (ctx: Context, stack: CheckoutBackend) => Promise<void>> = {
    async '/__fixture/sessions'(ctx, stack) {
      const { merchant = 'shop', ...session } = await readJson(ctx);
      const companion = Object.hasOwn(stack.merchants, String(merchant)) ? stack.merchants[merchant as Merchant] : undefined;
      if (!companion) throw new FixtureMisuse(`no merchant ${String(merchant)}`);
      const response = await fetch(`${companion.url}/api/checkout/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${companion.adminToken}` },
        body: JSON.stringify(session),
      });
      if (response.status !== 201) return relay(ctx, response);
      ctx.body = { ...((await response.json()) as object), companion_url: companion.url };
    },

    async '/__fixture/close'(ctx, stack) {
      const { id } = await readJson(ctx);
      const { url, adminToken } = stack.merchants.shop;
      await relay(ctx, await fetch(`${url}/api/checkout/sessions/${encodeURIComponent(String(id))}`, { method: 'DELETE', headers: { authorization: `Bearer ${adminToken}` } }));
    },

    async '/__fixture/3ds'(ctx, stack) {
      const { url, result } = await readJson(ctx);
      if (typeof url !== 'string' || new URL(url).origin !== stack.sandboxUrl) throw new FixtureMisuse('url must be a page of the sandbox');
      // What the page's form sends when the customer presses a button; the redirect back is the browser's to follow.
      const response = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: String(result) }), redirect: 'manual' });
      if (response.status !== 303) return relay(ctx, response);
      ctx.body = { result };
    },

    async '/__fixture/clock'(ctx, stack) {
      const body = JSON.stringify(await readJson(ctx));
      await relay(ctx, await fetch(`${stack.sandboxUrl}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    },

    async '/__fixture/module'(ctx) {
      const { path, answer } = await readJson(ctx);
      if (typeof path !== 'string' || !/^\/widget\/([\w/-]+\.ts|dist\/[\w/-]+\.js)$/.test(path)) {
        throw new FixtureMisuse('path must be a module of the widget, e.g. /widget/checkout/paying.ts, or a file of its build, e.g. /widget/dist/chunks/paying.js');
      }
      if (answer !== 'hold' && answer !== 'fail' && answer !== 'drop' && answer !== 'serve') throw new FixtureMisuse('answer must be hold, fail, drop or serve');
      modules.set(path, answer);
      // Read before the requests it let go have gone on: a path held again counts them still.
      ctx.body = { path, answer, held: modules.held(path) };
    },
  };

  return async (ctx, next) => {
    const failed = ctx.method === 'GET' || ctx.method === 'HEAD' ? await modules.fails(ctx.path) : undefined;
    if (failed === 'fail') {
      ctx.status = 503;
      return;
    }
    if (failed === 'drop') {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    if (ctx.path.startsWith(`${WITHOUT_OPTIONS}/api/checkout/`)) {
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        ctx.set('Allow', 'GET, POST, DELETE, HEAD, OPTIONS');
        return;
      }
      ctx.url = ctx.url.slice(WITHOUT_OPTIONS.length);
    }
    const fixture = ctx.method === 'POST' ? fixtures[ctx.path] : undefined;
    if (!fixture && !ctx.path.startsWith('/api/checkout/')) return next();
    if (!isLoopback(ctx.req.socket.remoteAddress)) {
      ctx.status = 403;
      return;
    }
    try {
      const stack = await backend();
      if (!stack) throw new Error('the checkout backend has not started');
      await (fixture ? fixture(ctx, stack) : forward(ctx, stack.merchants.shop.url));
    } catch (error) {
      // A fixture used wrongly is the test's mistake (400); anything else is the backend's.
      ctx.status = error instanceof FixtureMisuse ? 400 : 502;
      ctx.body = { error: { code: 'fixture', message: error instanceof Error ? error.message : String(error) } };
    }
  };
}

/** The plugin and the routes; give the dev server both. */
export function checkoutBackend(): { plugin: Plugin; routes: Middleware } {
  let backend: Promise<CheckoutBackend> | undefined;
  const modules = new ModuleAnswers();
  return {
    plugin: {
      name: 'payform-checkout-backend',
      async serverStart({ config, server }) {
        // The port it listens on: the configured one, or the free one it took for port 0.
        const port = (server?.address() as AddressInfo | null)?.port ?? config.port;
        backend = startCheckoutBackend(`http://${config.hostname ?? '127.0.0.1'}:${port}`);
        await backend;
      },
      async serverStop() {
        modules.clear();
        await (await backend)?.close();
      },
    },
    routes: backendRoutes(() => backend, modules),
  };
}
