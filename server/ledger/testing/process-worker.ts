// Another OS process on the same SQLite file, for the cross-process tests: opens the ledger,
// says "ready", waits for "go" on stdin (so both processes really race), runs one batch of
// ledger calls all at once and prints what happened as JSON.
import { once } from 'node:events';
import { openLedger } from '../ledger.js';
import { LedgerError } from '../errors.js';
import type { GatewayEvent } from '../types.js';

export type WorkerJob =
  | { readonly kind: 'refunds'; readonly path: string; readonly orderId: string; readonly count: number; readonly amount: number }
  | { readonly kind: 'events'; readonly path: string; readonly events: readonly GatewayEvent[] }
  | { readonly kind: 'claims'; readonly path: string; readonly sessionIds: readonly string[]; readonly clicks: number };

export interface WorkerReport {
  /** Refunds settled, events new, attempts claimed. */
  readonly succeeded: number;
  readonly refused: number;
  /** Anything that is not a typed refusal: must stay empty. */
  readonly errors: readonly string[];
}

async function run(job: WorkerJob): Promise<WorkerReport> {
  const ledger = await openLedger(job.path);
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  const calls: Array<Promise<boolean>> =
    job.kind === 'refunds'
      ? Array.from({ length: job.count }, async () => {
          const op = await ledger.reserveOperation(job.orderId, { kind: 'refund', amount: job.amount });
          await ledger.settleOperation(op.id, { status: 'success' });
          return true;
        })
      : job.kind === 'events'
        ? job.events.map(async (event) => (await ledger.ingestEvent(event)).isNew)
        : job.sessionIds.flatMap((sessionId) => Array.from({ length: job.clicks }, async () => (await ledger.claimPayAttempt(sessionId, { mode: 'direct' })).claimed));
  const outcomes = await Promise.allSettled(calls);
  await ledger.close();
  const errors = outcomes.flatMap((outcome) => (outcome.status === 'rejected' && !(outcome.reason instanceof LedgerError) ? [String(outcome.reason)] : []));
  return {
    succeeded: outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value).length,
    refused: outcomes.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof LedgerError).length,
    errors,
  };
}

process.stdout.write(JSON.stringify(await run(JSON.parse(process.argv[2]!) as WorkerJob)));
