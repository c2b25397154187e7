/**
 * The HTTP journeys against the stack `npm start` runs (demo/stack.ts), started from the sources:
 * the companion with the demo on its port, the bundled sandbox, a SQLite file ledger. The same
 * journeys run against the packaged bins in e2e/packages/companion-journeys.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startStack } from '../../demo/stack.js';
import type { RunningStack } from '../../demo/stack.js';
import { describeCompanionJourneys } from './journeys.js';

let stack: RunningStack;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'payform-npm-start-'));
  stack = await startStack({
    env: {
      ...process.env,
      PORT: '0',
      SANDBOX_PORT: '0',
      PAYFORM_HOST: '127.0.0.1',
      PAYFORM_PUBLIC_URL: '',
      PAYFORM_GATEWAY_BASE_URL: '',
      PAYFORM_DATABASE_URL: join(directory, 'payform.db'),
      PAYFORM_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      PAYFORM_LOG_LEVEL: 'error',
      // These journeys post card data to the pay route, as a companion without a widget key takes
      // it; the demo's default tokenize mode has its own journey (e2e/journeys/card-data-path.spec.ts).
      PAYFORM_DEMO_CARD_ENTRY: 'relay',
    },
  });
});

afterAll(async () => {
  await stack?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describeCompanionJourneys('npm start (demo/stack.ts, from the sources)', () => ({
  companionUrl: stack.companion.url,
  sandboxUrl: stack.sandboxUrl!,
  adminToken: stack.adminToken,
}));
