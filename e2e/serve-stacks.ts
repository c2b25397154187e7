/**
 * The end-to-end suite's web server (playwright.config.ts `webServer`): builds what `npm start`
 * would build, then starts one whole stack — sandbox, companion, demo — per test worker, each
 * on free ports with its own in-memory ledger, so a test may reset its sandbox or inject faults
 * without touching another worker's test. When all listen it prints
 *
 *   payform e2e stacks <base64url JSON of [{ shop, sandbox, token }]>
 *
 * which the config's `wait` pattern captures into PAYFORM_E2E_STACKS for the workers.
 * SIGTERM (Playwright's shutdown) stops them all.
 */
import { randomBytes } from 'node:crypto';
import { buildWhatIsStale } from '../demo/builds.js';
import { startStack } from '../demo/stack.js';
import { DEFAULT_WEBHOOKS } from '../server/sandbox/index.js';
import type { RunningStack } from '../demo/stack.js';

/** Short enough that the "slow gateway" journey does not wait half a minute, long enough for a loaded CI machine. */
const E2E_GATEWAY_TIMEOUT_MS = 5_000;

const count = Number(process.env.PAYFORM_E2E_WORKERS ?? 2);
await buildWhatIsStale((line) => console.error(line));

const stacks: RunningStack[] = [];
for (let i = 0; i < count; i++) {
  stacks.push(
    await startStack({
      env: {
        ...process.env,
        PORT: '0',
        SANDBOX_PORT: '0',
        PAYFORM_HOST: '127.0.0.1',
        PAYFORM_PUBLIC_URL: '',
        PAYFORM_DATABASE_URL: ':memory:',
        // The journeys drive payform's own client: its requests must be exact (strict mode).
        SANDBOX_STRICT: '1',
        PAYFORM_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
        // Each test is its own customer, with its own address (X-Forwarded-For): pay rate limits count per test.
        PAYFORM_TRUST_PROXY: 'true',
        // The fault journeys make the companion warn on purpose; errors still show.
        PAYFORM_LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
      },
      gatewayTimeoutMs: E2E_GATEWAY_TIMEOUT_MS,
      // A reordered webhook waits for the next one this long (2 s by default): a challenge clicked
      // on a busy machine still comes before it, so the reordering is certain.
      sandbox: { webhooks: { ...DEFAULT_WEBHOOKS, reorderHoldMs: 8_000 } },
    }),
  );
}

const described = stacks.map((stack) => ({ shop: stack.shopUrl.replace(/\/$/, ''), sandbox: stack.sandboxUrl, token: stack.adminToken }));
console.log(`payform e2e stacks ${Buffer.from(JSON.stringify(described)).toString('base64url')}`);

const stop = () => {
  void Promise.allSettled(stacks.map((stack) => stack.close())).then(() => process.exit(0));
  setTimeout(() => process.exit(1), 5_000).unref();
};
process.once('SIGTERM', stop).once('SIGINT', stop);
