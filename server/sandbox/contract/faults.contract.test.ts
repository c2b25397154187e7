/**
 * Contract: the API faults as the client meets them over real HTTP — error answers, a dropped
 * connection (socket destroyed), latency against the client's timeout — and what the client
 * makes of them: reads retried, money-moving calls reported as outcome unknown.
 */
import { describe, expect, it } from 'vitest';
import {
  GatewayUnavailableError, NetworkError, NetworkTimeoutError, OutcomeUnknownError, RateLimitError,
} from '@payform/gateway';
import { useServedSandbox } from '../testing/served.js';
import { direct } from './params.js';

const sandbox = useServedSandbox();
const hook = () => sandbox.receiver.url();
const faults = (settings: Record<string, unknown>) => sandbox.control('PUT', '/_sandbox/faults', settings);

describe('API faults through the client', () => {
  it('a dropped connection before handling: create reports outcome unknown, and nothing was created', async () => {
    await faults({ drop_connection: true, times: 1, scope: { method: 'POST' } });
    const params = direct(hook());
    const error = await sandbox.client().payments.create(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(NetworkError);
    await expect(sandbox.client().orders.get(params.order_id)).rejects.toMatchObject({ status: 404 });
  });

  it('a dropped connection after handling: outcome unknown, and reading the order shows it happened', async () => {
    await faults({ drop_connection: 1, times: 1, phase: 'after', scope: { path: '/api/v1/payment' } });
    const params = direct(hook());
    await expect(sandbox.client().payments.create(params)).rejects.toBeInstanceOf(OutcomeUnknownError);
    const [entry] = await sandbox.client().orders.get(params.order_id);
    expect(entry).toMatchObject({ status: 'success' });
  });

  it('reads are retried through dropped connections and 5xx answers', async () => {
    await faults({ drop_connection: true, times: 1 });
    expect(await sandbox.client().balances.listAccounts()).toHaveLength(5);
    await faults({ error_rate: 1, error_status: 502, times: 2 });
    expect(await sandbox.client().balances.listAccounts()).toHaveLength(5);
  });

  it('error answers map to the client’s errors once retries are spent', async () => {
    await faults({ error_rate: 1, error_status: 500 });
    await expect(sandbox.client().balances.listTerminals()).rejects.toBeInstanceOf(GatewayUnavailableError);
    await faults({ error_rate: 1, error_status: 429 });
    const limited = await sandbox.client({ retry: { maxRetries: 0 } }).balances.listTerminals().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterMs).toBe(1_000);
  });

  it('latency beyond the client timeout is a timeout; within it, just slower', async () => {
    await faults({ latency_ms: 400, times: 1 });
    const error = await sandbox.client({ timeoutMs: 100, retry: { maxRetries: 0 } }).balances.listAccounts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkTimeoutError);
    await faults({ latency_ms: 50, times: 1 });
    expect(await sandbox.client().balances.listAccounts()).toHaveLength(5);
  });

  it('the webhook receiver and the sandbox stay healthy after drops', async () => {
    await faults({ drop_connection: true, times: 3 });
    for (let i = 0; i < 3; i += 1) await fetch(`${sandbox.url}/api/v1/payment`, { method: 'POST' }).catch(() => undefined);
    expect(await sandbox.client().health()).toBe(true);
    const payment = await sandbox.client().payments.create(direct(hook()));
    expect(payment.status).toBe('success');
  });
});
