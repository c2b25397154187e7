/**
 * @payform/companion: the merchant's Hono server and its ledger. See docs/companion.md.
 */
export { createCompanion } from './app.js';
export type { CompanionApp, CompanionHandle } from './app.js';
export { DEFAULT_RATE_LIMITS, DEFAULT_RECONCILIATION } from './config.js';
export type { CompanionConfig, RateLimits, ReconciliationTimings, TokenizerConfig } from './config.js';
export { readCompanionConfig } from './settings.js';
export type { CompanionSettings } from './settings.js';
export { composeCompanion, startCompanion } from './start.js';
export type { ComposedCompanion, RunningCompanion, StartOptions } from './start.js';
// Mounted in a server of the merchant's: Hono routes to `app`, other hosts call `app.fetch`; Node servers (Express) take this.
export { toNodeListener } from './http/node-listener.js';
export type { NodeListener } from './http/node-listener.js';
export { createLogger, memorySink, stderrSink } from './log/logger.js';
export type { LogFields, LogLevel, Logger, LogSink } from './log/logger.js';
export { redact, redactForStorage } from './log/redact.js';
export type { PaymentChange, PaymentEventHook, ChangeSource } from './payments/reactions.js';
// Payment changes POSTed, signed, to a URL (PAYFORM_NOTIFY_URL), and the signature checked by a receiver in Node.
export { notifyHook, verifyNotification } from './payments/notify-url.js';
export type { NotifyOptions } from './payments/notify-url.js';
export type { ReconciliationReport } from './reconciliation/reconciler.js';
export { openApiDocument } from './openapi/openapi-document.js';
export type { CompanionBindings, CompanionEnv, CompanionServices } from './context.js';
// For routes a merchant adds beside the companion's (`extend`), answering in its error envelope.
export { ApiProblem } from './http/problem.js';
export { limitBody, requireAdminToken, requireMediaType } from './http/guards.js';
export { validate } from './http/validate.js';
export { noStore } from './http/browser-policies.js';
export { limitPerClient } from './http/client-limit.js';
export { RateLimiter } from './http/rate-limit.js';
export {
  openLedger, InvalidLedgerInput, LedgerConflict, LedgerError, LedgerNotFound, OperationRefused,
  // A SQLite ledger moved into PostgreSQL (what `payform-companion copy-ledger` runs), and what
  // opening the file afterwards throws.
  copyLedger, LedgerMoved,
  // The state `ledger.noticeTold` and `noticeFailed` take, of the record a hook was told.
  paymentNotice, operationNotice,
} from '../ledger/index.js';
export type { Ledger, LedgerCopyOptions, LedgerOptions } from '../ledger/index.js';
