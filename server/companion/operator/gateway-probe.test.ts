// Trouble with the gateway ends at the first call answered again, and a companion no one calls
// makes none: without the probe, its error line, gauge and alert stayed on after the gateway was
// back, until a customer paid. Through a real sandbox over HTTP, its faults on the balances read.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '@payform/gateway';
import { TEST_PROJECT_DEFAULTS } from '../../gateway/test-project.js';
import { serveSandbox } from '../../sandbox/testing/served.js';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { createLogger, memorySink } from '../log/logger.js';
import { eventually } from '../test/stack.js';
import { GatewayProbe } from './gateway-probe.js';
import { GatewayTrouble } from './gateway-trouble.js';
import type { Trouble } from './gateway-trouble.js';

const INTERVAL_MS = 100;

let sandbox: ServedSandbox;
beforeEach(async () => void (sandbox = await serveSandbox()));
afterEach(() => sandbox.close());

/** A client of the sandbox whose calls GatewayTrouble hears, and the probe GatewayTrouble's changes start and stop. */
function watched() {
  const gateway = new GatewayClient({ baseUrl: sandbox.url, ...TEST_PROJECT_DEFAULTS, retry: { maxRetries: 0 } });
  const memory = memorySink();
  const probe = new GatewayProbe(gateway, INTERVAL_MS);
  const changes: (Trouble | undefined)[] = [];
  const trouble = new GatewayTrouble(createLogger({ sink: memory.sink }), Date.now, sandbox.url, (kind) => {
    changes.push(kind);
    probe.troubleChanged(kind);
  });
  let calls = 0;
  gateway.onCall((record) => {
    calls += 1;
    trouble.observe(record);
  });
  const lines = () => memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { gateway, probe, changes, lines, calls: () => calls };
}

const failBalances = (times: number) =>
  fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error_rate: 1, error_status: 503, scope: { method: 'GET', path: '/api/v1/balances' }, times }),
  }).then((answer) => expect(answer.status).toBe(200));

const read = (gateway: GatewayClient) => gateway.balances.listAccounts().catch(() => undefined);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the gateway probe', () => {
  it('ends trouble said once the gateway answers again, with no call of anyone’s, then reads no more', async () => {
    const { gateway, probe, changes, lines, calls } = watched();
    try {
      // Three calls failed in a row: said. Two of the probe's reads fail too, the third is answered.
      await failBalances(5);
      for (let i = 0; i < 3; i++) await read(gateway);
      expect(changes).toEqual(['failing']);
      await eventually(() => expect(changes).toEqual(['failing', undefined]), 5_000);
      expect(lines()).toMatchObject([
        { level: 'error', msg: expect.stringMatching(/keeps failing its calls/) },
        { level: 'warn', msg: 'the gateway answers again', was: 'failing', failed: 5 },
      ]);
      const made = calls();
      expect(made).toBe(6);
      await pause(INTERVAL_MS * 4);
      expect(calls(), 'no reads once the trouble is over').toBe(made);
    } finally {
      probe.stop();
    }
  });

  it('keeps trouble on while the gateway still fails, and reads nothing once stopped', async () => {
    const { gateway, probe, changes, calls } = watched();
    await failBalances(1_000);
    for (let i = 0; i < 3; i++) await read(gateway);
    await eventually(() => expect(calls()).toBeGreaterThanOrEqual(6), 5_000);
    expect(changes).toEqual(['failing']);
    probe.stop();
    // A read under way as it stopped is aborted, and heard as it ends: counted before, not as a new one.
    await pause(INTERVAL_MS);
    const made = calls();
    await pause(INTERVAL_MS * 4);
    expect(calls()).toBe(made);
  });
});
