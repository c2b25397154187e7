/**
 * While the gateway is in trouble, one read of it every PROBE_INTERVAL_MS. Trouble ends at the
 * first call answered again, and a companion no one calls (a quiet night, an outage over) makes
 * none: its log, its `payform_gateway_trouble` gauge and the alert on it stayed on until the next
 * customer paid, hours after the gateway came back. The read is the start's (gateway-check.ts):
 * the accounts' balances, answered only for the project's credentials and in the gateway's shape,
 * so another server at the address, or credentials still refused, keep the trouble on. Its
 * outcome reaches GatewayTrouble as every call's does (`GatewayClient.onCall`); it moves no money.
 */
import type { GatewayClient } from '@payform/gateway';
import type { Trouble } from './gateway-trouble.js';

/** Twice a reminder's rate: trouble over is said within half a minute, at two light reads a minute. */
export const PROBE_INTERVAL_MS = 30_000;
const PROBE_TIMEOUT_MS = 10_000;

export class GatewayProbe {
  readonly #gateway: Pick<GatewayClient, 'balances'>;
  readonly #intervalMs: number;
  readonly #stopped = new AbortController();
  #timer: ReturnType<typeof setInterval> | undefined;
  #reading = false;

  constructor(gateway: Pick<GatewayClient, 'balances'>, intervalMs = PROBE_INTERVAL_MS) {
    this.#gateway = gateway;
    this.#intervalMs = intervalMs;
  }

  /** GatewayTrouble's `onChange`: reads begin with trouble and end with it. */
  troubleChanged(trouble: Trouble | undefined): void {
    if (trouble === undefined || this.#stopped.signal.aborted) return this.#clear();
    // Never keeps a process alive that has nothing else to do.
    this.#timer ??= setInterval(() => void this.#read(), this.#intervalMs).unref();
  }

  stop(): void {
    this.#stopped.abort();
    this.#clear();
  }

  async #read(): Promise<void> {
    // A read still waiting on a slow gateway is the one under way: not a second beside it.
    if (this.#reading) return;
    this.#reading = true;
    try {
      await this.#gateway.balances.listAccounts({ signal: this.#stopped.signal, timeoutMs: PROBE_TIMEOUT_MS });
    } catch {
      // Its failure is GatewayTrouble's to count and say.
    } finally {
      this.#reading = false;
    }
  }

  #clear(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
