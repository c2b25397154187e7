import type { BrowserFingerprint } from './fingerprint.js';
import { readSessionView, type CustomerField, type SessionView } from './session-view.js';

/** Why talking to the companion did not give a usable answer (the `code` of `pay-error`). */
export type PayErrorCode = 'network' | 'server' | 'rejected' | 'rate_limited' | 'malformed' | 'unsafe_redirect';

/** `POST /api/checkout/sessions/:id/pay` — card or saved-card token, customer, fingerprint. */
export interface PayRequest {
  card: { number: string; exp_month: number; exp_year: number; cvv: string } | { token: string };
  customer?: Partial<Record<CustomerField, string>>;
  fingerprint: BrowserFingerprint;
}

export interface PayAnswer {
  status: 'success' | 'failure' | 'pending' | 'redirect';
  redirect_url?: string;
  /** Customer-safe text, for a failure. */
  message?: string;
  order_id?: string;
  payment_id?: string;
}

export class CompanionError extends Error {
  constructor(
    readonly code: PayErrorCode,
    /** HTTP status; 0 when no answer came. */
    readonly status = 0,
    /** Request fields the companion named in `error.fields`, as dotted paths. */
    readonly fields: string[] = [],
  ) {
    super(code);
  }
}

const ANSWERS: readonly string[] = ['success', 'failure', 'pending', 'redirect'];

// `error.fields` names fields as an object's keys, or as a list of names or of zod-like issues.
const fieldNames = (fields: unknown): string[] =>
  (Array.isArray(fields) ? fields : Object.keys(fields ?? {})).map((f) => [f?.path ?? f].flat().join('.'));

/** The companion's widget-facing API for one checkout session. */
export class Companion {
  constructor(
    private readonly endpoint: string,
    private readonly session: string,
  ) {}

  view(): Promise<SessionView> {
    return this.call('', undefined, 15_000, readSessionView);
  }

  pay(request: PayRequest): Promise<PayAnswer> {
    return this.call('/pay', request, 60_000, (body: PayAnswer | undefined) =>
      ANSWERS.includes(body?.status as string) && (body!.status !== 'redirect' || typeof body!.redirect_url === 'string') ? body : undefined,
    );
  }

  async hosted(): Promise<string> {
    return (await this.call('/hosted', {}, 15_000, (body: { redirect_url?: unknown } | undefined) =>
      typeof body?.redirect_url === 'string' ? body : undefined)).redirect_url as string;
  }

  /** One request; `read` checks the answer's shape. Timeouts and dropped connections are `network`. */
  private async call<T>(path: string, body: object | undefined, timeout: number, read: (body: never) => T | undefined): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.endpoint.replace(/\/$/, '')}/api/checkout/sessions/${encodeURIComponent(this.session)}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body && JSON.stringify(body),
        signal: AbortSignal.timeout(timeout),
      });
    } catch {
      throw new CompanionError('network');
    }
    const json = await response.json().catch(() => undefined);
    const { status } = response;
    if (!response.ok) {
      throw new CompanionError(status === 429 ? 'rate_limited' : status >= 500 ? 'server' : 'rejected', status, fieldNames(json?.error?.fields));
    }
    const answer = read(json as never);
    if (answer === undefined) throw new CompanionError('malformed', status);
    return answer;
  }
}
