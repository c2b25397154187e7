/**
 * `payform-companion backup`: the companion's SQLite ledger backed up into a new file, while it
 * runs on it or not (backupLedger, server/ledger/ledger-backup.ts). What it wrote goes to stdout,
 * why it could not to stderr.
 */
import { backupLedger } from '../ledger/index.js';
import { onLedgerFile } from './ledger-file.js';
import type { CommandOutput } from './ledger-file.js';

export interface BackupRequest {
  /** The backup's file, not there yet. */
  readonly to: string;
  /** The SQLite file; undefined: the companion's (PAYFORM_DATABASE_URL, or its default). */
  readonly from: string | undefined;
}

/** Runs the backup; its exit code: 0 once it is written and checked, 1 otherwise. */
export function runBackup(request: BackupRequest, env: NodeJS.ProcessEnv, output: CommandOutput): Promise<number> {
  return onLedgerFile('payform-companion backup', request.from, env, output, async (from) => {
    const { file, bytes, rows } = await backupLedger(from, request.to);
    return (
      `backed up ${rows.payments} payments, ${rows.checkout_sessions} checkout sessions, ${rows.operations} operations and ${rows.webhook_events} webhook events ` +
      `into ${file} (${bytes} bytes), checked`
    );
  });
}
