/**
 * A clock set wrong on one of the instances sharing a PostgreSQL ledger: each judges a session's
 * expiry and a payment's age by its own, so one 35 minutes ahead refuses as expired the sessions
 * the others open, and its reconciler's marks hide payments from theirs — and nothing said so.
 * Compared with the database server's as the companion starts: past a minute, one error naming
 * the fix. (SQLite's instances share a machine, and its clock.)
 */
import type { Ledger } from '../ledger/index.js';
import type { Logger } from './log/logger.js';

/** Past this, a skew is more than a statement's round trip or a drifting clock's month. */
const SKEWED_MS = 60_000;

export async function checkClock(ledger: Pick<Ledger, 'clockOffset'>, logger: Logger): Promise<void> {
  let offset: number | undefined;
  try {
    offset = await ledger.clockOffset();
  } catch (error) {
    // The start's other reads say what is wrong with the database.
    logger.debug('the clock could not be compared with the database server’s', { err: error });
    return;
  }
  if (offset === undefined || Math.abs(offset) < SKEWED_MS) return;
  const by = Math.abs(offset) < 3_600_000 ? `${Math.round(Math.abs(offset) / 60_000)} min` : `${(Math.abs(offset) / 3_600_000).toFixed(1)} h`;
  logger.error(
    `this machine's clock is ${by} ${offset > 0 ? 'ahead of' : 'behind'} the database server's (PAYFORM_DATABASE_URL): instances sharing the ledger judge a session's expiry ` +
      'and a payment\'s age each by its own clock, so customers are refused sessions another instance opened. Set this machine\'s clock by NTP (timedatectl set-ntp true), then restart',
    { clock_offset_ms: offset },
  );
}
