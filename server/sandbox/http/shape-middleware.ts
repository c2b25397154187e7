/**
 * Sends /api/v1 JSON answers in the wire forms PUT /_sandbox/faults `shapes` asks for
 * (shapes.ts). It wraps `c.json`, so an answer — a refusal answered by app.ts's error handler
 * included — is shaped once, before it is written, and the inspector records it as sent. Left
 * alone, like the faults: the checkout page and the card tokenizer (not the payment API), and a
 * HEAD, which has no body and must not move the seeded sequence.
 */
import type { MiddlewareHandler } from 'hono';
import type { SimulatedGateway } from '../simulated-gateway.js';
import type { SandboxEnv } from './env.js';

/** An order's state or one operation of it (a webhook re-send answers the same): not its receipts. */
const ORDER_STATE_PATH = /^\/api\/v1\/pos\/[^/]+\/orders\/[^/]+(?:\/[^/]+)?\/?$/;

/** `c.json` without its overloads. */
type RawJson = (object: unknown, arg?: unknown, headers?: unknown) => Response;

export function shapeAnswers(gateway: SimulatedGateway): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const shapes = gateway.faults.shapes;
    if (!shapes || c.req.method === 'HEAD') return next();
    if (c.req.path.startsWith('/api/v1/checkout/') || c.req.path.startsWith('/api/v1/sdk/')) return next();
    // The inspector's own c.json when it records the request: it then keeps the shaped text.
    const json = c.json as RawJson;
    const orderState = c.req.method === 'GET' && ORDER_STATE_PATH.test(c.req.path);
    c.json = ((object: unknown, arg?: unknown, headers?: unknown) => json(shapes.answer(object, orderState), arg, headers)) as typeof c.json;
    return next();
  };
}
