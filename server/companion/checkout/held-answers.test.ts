// Gateway answers held while the database was away, as the companion stops.
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/index.js';
import { createLogger, memorySink } from '../log/logger.js';
import { LedgerOutage } from '../operator/ledger-outage.js';
import { HeldAnswers } from './held-answers.js';

/** What PostgreSQL's driver throws while the server is away. */
const away = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('held gateway answers at stop', () => {
  let ledger: Ledger;
  let outage: LedgerOutage;
  afterEach(async () => {
    outage.stop();
    await ledger.close();
  });

  async function held() {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    const logger = createLogger({ sink: memory.sink });
    // No probe within the test: only the stop writes what is held.
    outage = new LedgerOutage({ ledger, logger, clock: Date.now, probeIntervalMs: 60_000 });
    return { answers: new HeldAnswers(outage, logger), lines: () => memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string; order_ids?: string[] }) };
  }

  it('says what it stops without, the database still away: before, they were dropped without a word', async () => {
    const { answers, lines } = await held();
    let tries = 0;
    answers.hold('session-1', 'order-1', away(), () => (tries++, Promise.reject(away())));
    answers.hold('session-2', 'order-2', away(), () => Promise.reject(away()));
    await answers.flush(1_000);
    // Written once more first: the database may be back by then.
    expect(tries).toBe(1);
    expect(lines().filter((line) => line.msg.startsWith('stopped with'))).toMatchObject([
      {
        level: 'warn',
        msg: 'stopped with 2 gateway answers not recorded, the database still away: reconciliation reads those orders from the gateway once a companion runs on this ledger again',
        order_ids: ['order-1', 'order-2'],
      },
    ]);
  });

  it('writes what it can at stop, and then says nothing', async () => {
    const { answers, lines } = await held();
    let written = false;
    answers.hold('session-1', 'order-1', away(), () => ((written = true), Promise.resolve()));
    await answers.flush(1_000);
    expect(written).toBe(true);
    expect(lines().filter((line) => line.msg.startsWith('stopped with'))).toEqual([]);
  });
});
