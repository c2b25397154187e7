/**
 * Whether the gateway's tokenizer lets the shop's pages call it. `<pay-form>` posts the card from
 * the customer's browser to the tokenizer, another origin, and the browser lets the page read the
 * answer only when the tokenizer names the page's origin (CORS): the gateway does for the origins
 * its project lists as widget origins. One left out sends every customer of that page to the
 * hosted page, and says why only in their console.
 *
 * Checked at start for each origin the companion takes pages from (PAYFORM_ALLOWED_ORIGINS), as a
 * browser asks: the preflight, then the POST itself (the key check's card, which fails Luhn, so
 * nothing is tokenized). Said once, naming the origins and the fix. A tokenizer that cannot be
 * reached, or answers neither way in time, is the key check's to say (tokenizer-check.ts).
 */
import { postToTokenizer, tokenizeBody, TokenizeRefusedError } from '@payform/gateway/tokenizer';
import type { Logger } from './log/logger.js';
import type { TokenizerToCheck } from './tokenizer-check.js';

/** Beyond that many origins the first are checked: a start does not send a tokenizer dozens of calls. */
const MOST_ORIGINS = 8;
const CHECK_TIMEOUT_MS = 10_000;
/** A Visa-shaped number whose check digit is wrong: the tokenizer refuses it. */
const FAILS_LUHN = '4000000000000001';

/** The origins the tokenizer refuses to pages; undefined when it could not tell (not reached, not in time). */
async function refusedOrigins(tokenizer: TokenizerToCheck, origins: readonly string[], signal: AbortSignal, send: typeof globalThis.fetch): Promise<string[] | undefined> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(CHECK_TIMEOUT_MS)]);
  const allows = (answer: Response, origin: string) => [origin, '*'].includes(answer.headers.get('access-control-allow-origin') ?? '');
  const card = { number: FAILS_LUHN, expMonth: 12, expYear: new Date().getUTCFullYear() + 5, cvv: '000' };
  try {
    const verdicts = await Promise.all(
      origins.slice(0, MOST_ORIGINS).map(async (origin) => {
        const preflight = await send(tokenizer.url, {
          method: 'OPTIONS',
          headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-sign,x-widget-id' },
          redirect: 'manual',
          signal: timeout,
        });
        await preflight.body?.cancel();
        // Another answer than a preflight's (no such path, a redirect, a failure): the key check says what.
        if (!preflight.ok) throw new Error(`preflight answered ${preflight.status}`);
        if (!allows(preflight, origin)) return origin;
        let posted: Response | undefined;
        const fromPage: typeof globalThis.fetch = async (input, init) =>
          (posted = await send(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: origin }, redirect: 'manual', signal: timeout }));
        const refusal = await postToTokenizer({ url: tokenizer.url, widgetKey: tokenizer.widgetKey, fetch: fromPage }, tokenizeBody(card)).then(() => undefined, (error: unknown) => error);
        // Only the tokenizer's refusal of the card tells: the key taken, the page's origin named or not.
        if (!posted || !(refusal instanceof TokenizeRefusedError) || refusal.status === 401 || refusal.status === 403) throw new Error('not answered as the tokenizer');
        return allows(posted, origin) ? undefined : origin;
      }),
    );
    return verdicts.filter((origin): origin is string => origin !== undefined);
  } catch {
    return undefined;
  }
}

export async function checkTokenizerOrigins(
  tokenizer: TokenizerToCheck,
  origins: readonly string[],
  logger: Logger,
  signal: AbortSignal,
  send: typeof globalThis.fetch = globalThis.fetch,
): Promise<void> {
  const refused = await refusedOrigins(tokenizer, origins, signal, send);
  if (signal.aborted || !refused) return;
  if (refused.length === 0) return logger.debug('the gateway’s tokenizer takes pages from every allowed origin', { tokenizer: tokenizer.url, origins: origins.slice(0, MOST_ORIGINS) });
  const pages = refused.join(', ');
  logger.error(
    `the gateway’s tokenizer at ${tokenizer.url} does not let pages at ${pages} call it (its answers name no such origin for CORS), so <pay-form> there cannot take a card and sends every customer to the gateway’s page: ` +
      `add ${refused.length > 1 ? 'them' : 'it'} to the widget origins of the gateway project PAYFORM_GATEWAY_WIDGET_KEY belongs to (the sandbox: widget_origins in its projects file), ` +
      'or take it out of PAYFORM_ALLOWED_ORIGINS if no page there takes card payments',
    { tokenizer: tokenizer.url, origins: refused },
  );
}
