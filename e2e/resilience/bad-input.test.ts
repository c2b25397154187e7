/**
 * Bad input, at scale: a generated corpus of more than 10,000 malformed requests against every
 * route of the companion and of the sandbox, both served on 127.0.0.1 (over real HTTP, several
 * at once), aimed at a world holding an order of every kind. The property: no 5xx, no crash,
 * every answer a 4xx with the server's well-formed error, and every stored row of the ledger
 * and every order, delivery and fault of the sandbox exactly as before.
 *
 * server/companion/http/bad-input.test.ts sweeps the companion's routes in process with a
 * fixed list; this corpus is generated from each route's valid request and schema instead.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStack } from '../../server/companion/test/stack.js';
import type { Stack } from '../../server/companion/test/stack.js';
import { LoopbackClient } from '../bench/load/http-client.js';
import { badRequests, sendCorpus } from './support/corpus.js';
import type { BadRequest } from './support/corpus.js';
import { dumpSqlite, sandboxState, sqliteFileBackend } from './support/stored-state.js';
import { companionTargets, sandboxTargets } from './support/surface.js';
import { buildWorld } from './support/world.js';
import type { World } from './support/world.js';

const CONCURRENCY = 8;
const backend = sqliteFileBackend();
let stack: Stack;
let world: World;
const client = new LoopbackClient(CONCURRENCY);

beforeAll(async () => {
  stack = await createStack({ backend, served: true, companion: { rateLimits: { perSession: 1_000_000, perClient: 1_000_000, wrongAdminTokens: 1_000_000 } } });
  world = await buildWorld(stack);
}, 60_000);

afterAll(async () => {
  client.close();
  await stack.close();
});

/** Raw bytes no HTTP client would send: Node's parser answers them; the server must live on. */
function sendRaw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

describe('a corpus of malformed requests against every route', () => {
  it('is refused with 4xx and a well-formed error each time, crashes nothing and changes nothing stored', async () => {
    const corpus: BadRequest[] = [...companionTargets(world), ...sandboxTargets(world)].flatMap((target) => [...badRequests(target)]);
    const companionShare = corpus.filter((request) => request.server === 'companion').length;
    expect(corpus.length).toBeGreaterThanOrEqual(10_000);
    expect(companionShare).toBeGreaterThan(3_000);
    expect(corpus.length - companionShare).toBeGreaterThan(3_000);

    const ledgerBefore = dumpSqlite(backend.path);
    const sandboxBefore = sandboxState(stack.sandbox);
    const { verdicts, statuses } = await sendCorpus(client, { companion: stack.companionUrl, sandbox: stack.sandboxUrl }, corpus, CONCURRENCY);

    const report = verdicts.slice(0, 25).map((verdict) => `${verdict.request.what}: ${verdict.problem}`);
    expect(report, `${verdicts.length} of ${corpus.length} answers were wrong`).toEqual([]);
    expect([...statuses.keys()].every((status) => status >= 400 && status < 500)).toBe(true);
    // Each kind of refusal happened: validation, auth, not found, method, media type, size.
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([400, 401, 404, 405, 413]));

    await stack.settleWebhooks();
    expect(dumpSqlite(backend.path)).toEqual(ledgerBefore);
    expect(sandboxState(stack.sandbox)).toEqual(sandboxBefore);
  }, 600_000);

  it('survives broken HTTP itself, and both servers still answer', async () => {
    const broken = [
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab',
      'POST /webhooks/gateway HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'POST /api/checkout/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n{}',
      `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header: \u0001\r\n\r\n',
      'BREW /coffee HTCPCP/1.0\r\n\r\n',
      '\u0000\u0001\u0002\u0003',
    ];
    for (const url of [stack.companionUrl, stack.sandboxUrl]) {
      for (const bytes of broken) {
        // Node's parser answers 400/431 (after a page, when a valid request came first).
        const answer = await sendRaw(url, bytes);
        expect(answer, bytes.slice(0, 60)).not.toMatch(/^HTTP\/1\.1 5\d\d/m);
      }
    }
    expect((await client.send('GET', `${stack.companionUrl}/healthz`)).status).toBe(200);
    expect((await client.send('GET', `${stack.sandboxUrl}/health`)).status).toBe(200);
  });
});
