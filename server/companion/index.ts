/**
 * server/companion: the merchant's Hono server. See docs/companion.md.
 */
export { createCompanion } from './app.js';
export type { CompanionApp, CompanionHandle } from './app.js';
export { DEFAULT_RATE_LIMITS, DEFAULT_RECONCILIATION } from './config.js';
export type { CompanionConfig, RateLimits, ReconciliationTimings } from './config.js';
export { readCompanionConfig } from './settings.js';
export type { CompanionSettings } from './settings.js';
export { composeCompanion, startCompanion } from './start.js';
export type { ComposedCompanion, RunningCompanion, StartOptions } from './start.js';
export { createLogger, memorySink, stderrSink } from './log/logger.js';
export type { LogFields, LogLevel, Logger, LogSink } from './log/logger.js';
export { redact } from '../gateway/redact.js';
export type { PaymentChange, PaymentEventHook, ChangeSource } from './payments/reactions.js';
export type { ReconciliationReport } from './reconciliation/reconciler.js';
export { openApiDocument } from './openapi/openapi-document.js';
