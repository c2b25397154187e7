/**
 * The companion's own count of the requests it is serving, kept in its app, where every host's
 * requests pass (Hono routing, a Node listener for Express, Nest, Fastify or Koa, a fetch
 * handler): so that a mounted companion's close() waits for them before its ledger closes, and
 * refuses what comes after instead of failing it on a closed ledger.
 *
 * Counted only once composeCompanion asks (`count()`): startCompanion counts at its own server,
 * until each answer is written out, and a bare createCompanion's ledger is its maker's to close.
 */
import type { Env, Hono, MiddlewareHandler } from 'hono';
import type { Logger } from '../log/logger.js';
import { InFlight } from './in-flight.js';
import { problemBody } from './problem.js';

/**
 * What a request gets once the companion began to close: come back shortly (to another
 * instance, or to this one restarted). The gate's answer gets the security headers from the app's
 * middleware; a server of the companion's own that is closing answers outside the app, so it
 * passes them (`security`), and `Connection: close` with them: HTTP/2, which a mounting host may
 * speak, refuses that header.
 */
export function shuttingDown(closing?: { readonly security: Readonly<Record<string, string>> }): Response {
  return new Response(JSON.stringify(problemBody('shutting_down', 'The server is shutting down; try again shortly')), {
    status: 503,
    headers: { ...closing?.security, 'Content-Type': 'application/json', 'Retry-After': '1', 'Cache-Control': 'no-store', ...(closing ? { Connection: 'close' } : {}) },
  });
}

type GateState = 'serving' | 'counting' | 'refusing';

export class RequestGate {
  #state: GateState = 'serving';
  readonly #inFlight = new InFlight();
  #told = false;
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /**
   * First in the app's chain. A payment pays one comparison here, and while counted one count
   * up and down (one reaction on the handler's promise): nothing else.
   */
  readonly admit: MiddlewareHandler = (_c, next) => {
    if (this.#state === 'counting') return this.#inFlight.track(next());
    return this.#state === 'serving' ? next() : Promise.resolve(this.#refuse());
  };

  /**
   * On routes whose answer reads the ledger while it streams (the orders export): counted
   * until its body is read out or the client leaves, not only until the handler returns.
   */
  readonly admitStream: MiddlewareHandler = async (c, next) => {
    await next();
    if (this.#state !== 'counting' || !c.res.body) return;
    c.res = new Response(this.#followed(c.res.body), c.res);
  };

  /** How many requests are being served (counted ones). */
  get size(): number {
    return this.#inFlight.size;
  }

  /** Counts every request from now on (composeCompanion). */
  count(): void {
    if (this.#state === 'serving') this.#state = 'counting';
  }

  /**
   * Refuses every request from now on, and waits for those counted to finish: true once they
   * have, false when `timeoutMs` passed first.
   */
  close(timeoutMs: number): Promise<boolean> {
    this.#state = 'refusing';
    return this.#inFlight.drained(timeoutMs);
  }

  #refuse(): Response {
    if (!this.#told) {
      this.#told = true;
      this.#logger.warn(
        'a request reached the companion after its close(): answered 503 shutting_down. Close your server before the companion, whose requests write to its ledger ' +
          '(NestJS: close the companion in onApplicationShutdown, not in onModuleDestroy)',
      );
    }
    return shuttingDown();
  }

  /** `body` as it comes, counted until it has all been read, or its reader cancelled it. */
  #followed(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    let settle = (): void => undefined;
    void this.#inFlight.track(new Promise<void>((resolve) => (settle = resolve)));
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (!done) return controller.enqueue(value);
            settle();
            controller.close();
          } catch (error) {
            settle();
            controller.error(error);
          }
        },
        async cancel(reason) {
          settle();
          await reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }
}

const gates = new WeakMap<object, RequestGate>();

/** Registers the gate on `app`: call it before any middleware that reads the ledger, so that it sees every request first. */
export function gateRequests<E extends Env>(app: Hono<E>, logger: Logger): RequestGate {
  const gate = new RequestGate(logger);
  app.use(gate.admit);
  gates.set(app, gate);
  return gate;
}

/** The gate createCompanion registered on `app`. */
export function requestGate(app: object): RequestGate {
  const gate = gates.get(app);
  if (!gate) throw new TypeError('not an app createCompanion made');
  return gate;
}
