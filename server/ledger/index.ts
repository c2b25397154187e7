// server/ledger: the companion's store. See docs/companion.md#ledger.
export { isPostgresUrl, ledgerUrlProblem, openLedger } from './ledger.js';
export type { Ledger, LedgerOptions } from './ledger.js';
export type { StatementObserver } from './observed.js';
export { InvalidLedgerInput, LedgerConflict, LedgerError, LedgerNotFound, OperationRefused } from './errors.js';
export type { ConflictReason, LedgerEntity, LedgerErrorCode, RefusalReason } from './errors.js';
export { isLedgerFault, isLedgerUnavailable, STORAGE_CODES } from './availability.js';
export { LedgerNotDurable, NOT_DURABLE } from './durability.js';
export { MissingDriverError } from './missing-driver.js';
export { upgradeNotice } from './upgrade-notice.js';
export type { UpgradeNotice } from './upgrade-notice.js';
export type { IndexBuilds, IndexBuildState, LedgerLog } from './index-builds.js';
export { holdsSession } from './attempts.js';
export { figuresDiffer } from './payments.js';
export { discrepancyVersion, LATER_REPORTS_KEPT, latestReport, reportsOf } from './discrepancies.js';
export { amountPaid, captureCeiling } from './money-rules.js';
export { NOTICE_GRACE_MS, operationNotice, paymentNotice } from './notices.js';
export type * from './types.js';
export type { IdempotencyClaim, IdempotencyRequest, StoredAnswer } from './idempotency.js';
