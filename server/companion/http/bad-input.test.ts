// Bad input against every route, on SQLite and on PostgreSQL: never a 5xx, nothing changed.
import { describe, expect, it } from 'vitest';
import { memoryBackend, postgresBackend, withTestDatabase } from '../../ledger/testing/databases.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { sendBadInputEverywhere } from '../test/bad-input.js';
import { stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();
const unlimited = { rateLimits: { perSession: 100_000, perClient: 100_000 } };

function describeBadInput(backend: LedgerBackend): void {
  describe(`bad input against every route (${backend.name})`, () => {
    it('never answers 5xx, always the envelope, and changes nothing stored', async () => {
      const stack = await open({ backend, companion: unlimited });
      expect(await sendBadInputEverywhere(stack)).toBeGreaterThan(700);
    }, 180_000);
  });
}

describeBadInput(memoryBackend);
withTestDatabase((url) => describeBadInput(postgresBackend(url)));
