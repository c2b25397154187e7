/**
 * The gateway's wire format — the one source of truth shared by the client and the sandbox:
 * its decimal amounts (the only place in payform where money is not in minor units), the
 * request, response and webhook schemas with the interface's quirks, the endpoint table, the
 * error body, status codes and the zod-issue reporting both sides use.
 */
export * from './decimals.js';
export * from './primitives.js';
export * from './issues.js';
export * from './compiled.js';
export * from './card.js';
export * from './amounts.js';
export * from './payment.js';
export * from './operation.js';
export * from './balance.js';
export * from './receipt.js';
export * from './order.js';
export * from './event.js';
export * from './error.js';
export * from './status.js';
export * from './routes.js';
export * from './written-amounts.js';
export * from './json-text.js';
