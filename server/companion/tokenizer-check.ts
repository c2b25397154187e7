/**
 * The widget key checked at start against the gateway's card tokenizer, which `<pay-form>` sends
 * cards to from the customer's browser. A wrong or stale key (another project's, stage's against
 * production) would show only in the customer's console, as a 401, and fail every card payment;
 * a widget URL where nothing or something else answers would send every customer to the hosted
 * page. Said once, naming the setting and the fix; nothing when the tokenizer takes the key.
 *
 * It tokenizes no card: the number it sends fails the Luhn check, which the tokenizer refuses
 * (gateway-notes.md, "Card tokenization") — after the key, so a known key gets that refusal and
 * an unknown one a 401 or 403. A gateway that checked the card first would answer the refusal
 * whatever the key: the check then says nothing, as for a right one. It never holds the start up,
 * gives up after CHECK_TIMEOUT_MS, and stops when the companion closes.
 */
import { postToTokenizer, tokenizeBody, TokenizeRefusedError } from '@payform/gateway/tokenizer';
import { TOKENIZE_TIMEOUT_MS } from '@payform/card/tokenize';
import { errorCode } from './log/error-code.js';
import type { Logger } from './log/logger.js';

/** A tokenizer slower than that at start is worth a line anyway (the gateway check's limit too). */
export const CHECK_TIMEOUT_MS = 10_000;

/** What the checks send the tokenizer: a Visa-shaped number whose check digit is wrong, no card's, which it refuses. */
export const checkCard = () => ({ number: '4000000000000001', expMonth: 12, expYear: new Date().getUTCFullYear() + 5, cvv: '000' });

const KEY = 'PAYFORM_GATEWAY_WIDGET_KEY (the companion’s tokenizer.widgetKey)';
const URL_SETTING = 'PAYFORM_GATEWAY_WIDGET_URL (tokenizer.widgetUrl; by default PAYFORM_GATEWAY_BASE_URL)';
const WIDGET_HOST = 'the gateway’s widget host, https://widget.<gateway> without a path (the tokenizer is its /api/v1/sdk/tokenize)';

export interface TokenizerToCheck {
  /** `{widget host}/api/v1/sdk/tokenize`. */
  readonly url: string;
  readonly widgetKey: string;
  /**
   * No widget URL was given: the host is PAYFORM_GATEWAY_BASE_URL's. Nothing there, and that
   * setting is the likelier mistake (the gateway's own check says so too), not one never set.
   */
  readonly hostOfBaseUrl?: boolean;
}

/** What to set when nothing answers where the tokenizer is looked for. */
function unreachedFix(tokenizer: TokenizerToCheck): string {
  return tokenizer.hostOfBaseUrl
    ? 'set PAYFORM_GATEWAY_BASE_URL (the gateway client’s baseUrl, mounted) to the gateway’s address, where the tokenizer is looked for while PAYFORM_GATEWAY_WIDGET_URL is unset — ' +
        `or, if the gateway’s tokenizer is on a host of its own, set PAYFORM_GATEWAY_WIDGET_URL to ${WIDGET_HOST}`
    : `set ${URL_SETTING} to ${WIDGET_HOST}`;
}

/** What answered the check, as far as it tells a misconfiguration. */
interface Answered {
  readonly status: number;
  readonly html: boolean;
  readonly location: string | null;
}

/**
 * Sends the check once and logs what it shows wrong; `signal` stops it, silently, when the
 * companion closes. `send`: the gateway client's fetch when one was given (a proxy's, say).
 */
export async function checkTokenizer(tokenizer: TokenizerToCheck, logger: Logger, signal: AbortSignal, send: typeof globalThis.fetch = globalThis.fetch): Promise<void> {
  const timeout = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  let answered: Answered | undefined;
  // The tokenizer client's own request (signature, headers), recorded: its errors do not carry what answered.
  const recording: typeof globalThis.fetch = async (input, init) => {
    const response = await send(input, { ...init, redirect: 'manual', signal: AbortSignal.any([signal, timeout]) });
    answered = { status: response.status, html: /^text\/html\b/i.test(response.headers.get('content-type') ?? ''), location: response.headers.get('location') };
    return response;
  };
  const error = await postToTokenizer({ url: tokenizer.url, widgetKey: tokenizer.widgetKey, fetch: recording }, tokenizeBody(checkCard())).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (signal.aborted) return;
  // An answer read in time (a refusal, a token) is what counts, however close to the limit.
  const timedOut = timeout.aborted && error !== undefined && !(error instanceof TokenizeRefusedError);
  const problem = diagnose(tokenizer, error, answered, timedOut);
  const fields = { tokenizer: tokenizer.url, ...(answered ? { status: answered.status } : {}) };
  if (problem) logger[problem.level](problem.message, fields);
  else logger.debug('the gateway’s tokenizer takes the widget key', fields);
}

function diagnose(checked: TokenizerToCheck, error: unknown, answered: Answered | undefined, timedOut: boolean): { level: 'warn' | 'error'; message: string } | undefined {
  const { url } = checked;
  const tokenizer = `the gateway’s tokenizer at ${url}`;
  // Slow is not wrong: the key is unknown either way, and said so, as a warning.
  if (timedOut) {
    return { level: 'warn', message: `${tokenizer} did not answer within ${CHECK_TIMEOUT_MS / 1000} s, so ${KEY} could not be checked; customers’ browsers wait on it as long to take a card, and send the customer to the gateway’s page after ${TOKENIZE_TIMEOUT_MS / 1000} s` };
  }
  if (!answered) {
    return {
      level: 'error',
      message:
        `${tokenizer} cannot be reached from this server (${reachFailure(error)}): <pay-form> sends every customer to the gateway’s page instead of taking the card; ` +
        unreachedFix(checked),
    };
  }
  const elsewhere = notTheTokenizer(answered, error);
  if (elsewhere) return { level: 'error', message: `what answers at ${url} is not the gateway’s tokenizer (${elsewhere}): set ${URL_SETTING} to ${WIDGET_HOST}` };
  if (answered.status === 401 || answered.status === 403) {
    const refusal = error instanceof TokenizeRefusedError ? ` ${error.id}` : '';
    return {
      level: 'error',
      message:
        `${tokenizer} refuses the widget key (HTTP ${answered.status}${refusal}), so <pay-form> cannot tokenize a card and every card payment fails: ` +
        `set ${KEY} to the widget key of the project the tokenizer belongs to (production’s and stage’s differ; the tokenizer is ${URL_SETTING})`,
    };
  }
  if (answered.status >= 500) {
    return { level: 'warn', message: `${tokenizer} fails (HTTP ${answered.status}), so ${KEY} could not be checked; while it fails, <pay-form> sends customers to the gateway’s page` };
  }
  // Another refusal (the card's Luhn check) or a token: the key was taken.
  return undefined;
}

/**
 * What proves another server answered: no such path, a redirect, a page, no JSON at all, or a
 * refusal not in the tokenizer's words. Not a 5xx, which may be the page of the tokenizer's own
 * proxy while it restarts.
 */
function notTheTokenizer({ status, html, location }: Answered, error: unknown): string | undefined {
  if (status >= 300 && status < 400) return location ? `it answers HTTP ${status}, a redirect to ${location}` : `it answers HTTP ${status}, a redirect`;
  if (status === 404 || status === 405) return `it has no such path: HTTP ${status}`;
  if (status >= 500) return undefined;
  if (html) return `it answers an HTML page, HTTP ${status}`;
  // The tokenizer answers JSON, its refusals too.
  if (error instanceof Error && error.cause instanceof SyntaxError) return `it answers HTTP ${status} that is not JSON`;
  // Its refusal of a key names itself ({"id", "errorMessage"}); a bare 401 is another host's
  // guard, such as the payment API's when the widget URL was left to default to it.
  if ((status === 401 || status === 403) && !(error instanceof TokenizeRefusedError)) return `it answers HTTP ${status} without the tokenizer’s refusal, an "id"`;
  return undefined;
}

/** The network's word for it (ECONNREFUSED, ENOTFOUND, a TLS code), else the error's. */
function reachFailure(error: unknown): string {
  return errorCode(error) ?? (error instanceof Error ? error.message : String(error));
}
