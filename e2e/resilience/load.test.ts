/**
 * Sustained load: for 30 seconds (PAYFORM_LOAD_SECONDS to change it), customers check out
 * without pause — eight at a time, cards that succeed, decline and go through 3-D Secure —
 * while the sandbox sends every webhook three times. The companion and the sandbox run in
 * processes of their own on 127.0.0.1, the companion on a SQLite file with its request log on.
 *
 * The property: not one error (every session opened, every payment answered and ending as its
 * card says, nothing logged at error level), the companion still healthy, and its memory
 * bounded: from the end of a warm-up (the JIT and the heap settle in the first seconds) to the
 * end of the run, the heap in use after a full collection grows by less than HEAP_GROWTH_BOUND
 * and the resident set by less than RSS_GROWTH_BOUND. (A 120 s run grew the collected heap by
 * under 3 MiB; heap snapshots taken a minute apart after warm-up differ by under 1 MiB, all of
 * it timers of gateway calls still within their timeout.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER, FINGERPRINT, card } from '../../server/companion/test/cards.js';
import type { TestCardOutcome } from '../../server/gateway/test-project.js';
import { LoopbackClient } from '../bench/load/http-client.js';
import { BENCH_ADMIN_TOKEN } from '../bench/servers/credentials.js';
import { spawnServer } from '../bench/servers/processes.js';
import type { ServerProcess } from '../bench/servers/processes.js';

const SECONDS = Number(process.env.PAYFORM_LOAD_SECONDS ?? 30);
const CUSTOMERS = 8;
const MIB = 2 ** 20;
/** What the companion may gain between the end of warm-up and the end of the run. */
const HEAP_GROWTH_BOUND = 16 * MIB;
const RSS_GROWTH_BOUND = 96 * MIB;
const WARM_UP_SECONDS = Math.min(10, SECONDS / 3);
/** How often the companion collects garbage and logs its memory (it runs with --expose-gc). */
const MEMORY_LOG_MS = 2_000;
const ADMIN = { Authorization: `Bearer ${BENCH_ADMIN_TOKEN}` };

/** The card mix, and what each ends as. */
const MIX: { outcome: TestCardOutcome; final: 'success' | 'failure' }[] = [
  { outcome: 'success', final: 'success' },
  { outcome: 'success', final: 'success' },
  { outcome: 'success', final: 'success' },
  { outcome: 'rejected', final: 'failure' },
  { outcome: 'insufficient_funds', final: 'failure' },
  { outcome: 'three_ds_challenge', final: 'success' },
];

let dir: string;
let sandbox: ServerProcess;
let companion: ServerProcess;
const client = new LoopbackClient(CUSTOMERS * 2);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'payform-load-'));
  sandbox = await spawnServer('sandbox');
  companion = await spawnServer('companion', {
    logFile: join(dir, 'companion.log'),
    env: { BENCH_GATEWAY_URL: sandbox.url, BENCH_DATABASE_URL: join(dir, 'ledger.db'), BENCH_MEMORY_LOG_MS: String(MEMORY_LOG_MS), NODE_OPTIONS: '--expose-gc' },
  });
  // Every webhook three times: the duplicates are part of the load.
  const faults = await client.json('PUT', `${sandbox.url}/_sandbox/faults`, { webhook_duplicates: 2 });
  expect(faults.status).toBe(200);
}, 60_000);

afterAll(async () => {
  client.close();
  await companion?.stop();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe(`the companion under ${SECONDS} s of checkouts and webhooks`, () => {
  it('answers every request, settles every payment as its card says, and keeps its memory bounded', async () => {
    const problems: string[] = [];
    const expected = new Map<string, 'success' | 'failure'>();
    const logFile = join(dir, 'companion.log');
    /** The companion's own memory lines, each after a full collection. */
    const memoryLines = () =>
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"msg":"memory"'))
        .map((line) => JSON.parse(line) as { rss: number; heapUsed: number });
    const started = Date.now();
    let warm: { rss: number; heapUsed: number } | undefined;
    const warmUp = setTimeout(() => (warm = memoryLines().at(-1)), WARM_UP_SECONDS * 1000);

    const checkout = async (index: number) => {
      const { outcome, final } = MIX[index % MIX.length]!;
      const opened = await client.json('POST', `${companion.url}/api/checkout/sessions`, { amount: 1010 + (index % 50) * 100, currency: 'UAH', description: `Load ${index}` }, ADMIN);
      if (opened.status !== 201) return void problems.push(`open: HTTP ${opened.status} ${opened.body.slice(0, 120)}`);
      const session = JSON.parse(opened.body) as { id: string; order_id: string };
      const paid = await client.json('POST', `${companion.url}/api/checkout/sessions/${session.id}/pay`, { card: card(outcome), customer: CUSTOMER, fingerprint: FINGERPRINT });
      if (paid.status !== 200) return void problems.push(`pay: HTTP ${paid.status} ${paid.body.slice(0, 120)}`);
      const answer = JSON.parse(paid.body) as { status: string; payment_id?: string };
      if (outcome === 'three_ds_challenge') {
        if (answer.status !== 'redirect') return void problems.push(`3-D Secure answered ${answer.status}`);
        const decided = await client.json('POST', `${sandbox.url}/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
        if (decided.status !== 200) return void problems.push(`3-D Secure decision: HTTP ${decided.status}`);
      } else if (answer.status !== final) {
        return void problems.push(`${outcome} answered ${answer.status}`);
      }
      expected.set(session.order_id, final);
    };

    let next = 0;
    const deadline = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CUSTOMERS }, async () => {
        while (Date.now() < deadline) await checkout(next++);
      }),
    );
    clearTimeout(warmUp);
    await new Promise((resolve) => setTimeout(resolve, MEMORY_LOG_MS + 500));
    const end = memoryLines().at(-1);

    expect(problems.slice(0, 10)).toEqual([]);
    // That the load was sustained, not how fast it ran (speed is the benchmarks' job): one checkout a
    // second on average is far below what even a busy CI machine manages.
    expect(expected.size).toBeGreaterThan(SECONDS);

    // Every payment ends as its card says, once the last webhooks are in.
    const statuses = new Map<string, string>();
    const deadlineSettle = Date.now() + 20_000;
    for (;;) {
      statuses.clear();
      for (const status of ['success', 'failure']) {
        let cursor = '';
        do {
          const page = await client.send('GET', `${companion.url}/api/orders?status=${status}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, undefined, ADMIN);
          const body = JSON.parse(page.body) as { orders: { order_id: string; status: string }[]; next_cursor: string | null };
          for (const order of body.orders) statuses.set(order.order_id, order.status);
          cursor = body.next_cursor ?? '';
        } while (cursor);
      }
      if ([...expected].every(([orderId, final]) => statuses.get(orderId) === final) || Date.now() > deadlineSettle) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const wrong = [...expected].filter(([orderId, final]) => statuses.get(orderId) !== final);
    expect(wrong.slice(0, 10).map(([orderId, final]) => `${orderId}: ${statuses.get(orderId) ?? 'missing'}, expected ${final}`)).toEqual([]);

    // Healthy, nothing logged as an error, webhooks (with their duplicates) all taken in.
    expect((await client.send('GET', `${companion.url}/healthz`)).status).toBe(200);
    const log = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    expect(log.filter((line) => line.includes('"level":"error"')).slice(0, 5)).toEqual([]);
    const webhooks = log.filter((line) => line.includes('"msg":"webhook received"'));
    expect(webhooks.filter((line) => line.includes('"duplicate":true')).length).toBeGreaterThan(expected.size);

    expect(warm, 'the companion logged its memory during warm-up').toBeDefined();
    expect(end).toBeDefined();
    const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
    console.log(
      `load: ${expected.size} checkouts in ${SECONDS} s with ${CUSTOMERS} customers, ${webhooks.length} webhook deliveries; ` +
        `companion after warm-up: heap ${mib(warm!.heapUsed)}, RSS ${mib(warm!.rss)}; at the end: heap ${mib(end!.heapUsed)}, RSS ${mib(end!.rss)}`,
    );
    expect(end!.heapUsed - warm!.heapUsed).toBeLessThan(HEAP_GROWTH_BOUND);
    expect(end!.rss - warm!.rss).toBeLessThan(RSS_GROWTH_BOUND);
  }, (SECONDS + 90) * 1000);
});
