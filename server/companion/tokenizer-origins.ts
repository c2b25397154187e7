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
import { CHECK_TIMEOUT_MS, checkCard } from './tokenizer-check.js';
import type { TokenizerToCheck } from './tokenizer-check.js';

/** Beyond that many origins the first are checked: a start does not send a tokenizer dozens of calls. */
const MOST_ORIGINS = 8;

/** `refused` or `taken` as the tokenizer answered a page of that origin; `unknown` when its answers do not tell. */
type Verdict = 'refused' | 'taken' | 'unknown';

/** Whether the answer lets a page of `origin` read it. */
const allows = (answer: Response, origin: string) => [origin, '*'].includes(answer.headers.get('access-control-allow-origin') ?? '');

/** How the tokenizer answers a page of `origin`: its preflight, then the POST itself. */
async function verdictFor(tokenizer: TokenizerToCheck, origin: string, signal: AbortSignal, send: typeof globalThis.fetch): Promise<Verdict> {
  const preflight = await send(tokenizer.url, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-sign,x-widget-id' },
    redirect: 'manual',
    signal,
  });
  await preflight.body?.cancel();
  // Another answer than a preflight's (no such path, a redirect, a failure): the key check says what.
  if (!preflight.ok) return 'unknown';
  if (!allows(preflight, origin)) return 'refused';
  let posted: Response | undefined;
  const fromPage: typeof globalThis.fetch = async (input, init) =>
    (posted = await send(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: origin }, redirect: 'manual', signal }));
  const refusal = await postToTokenizer({ url: tokenizer.url, widgetKey: tokenizer.widgetKey, fetch: fromPage }, tokenizeBody(checkCard())).then(() => undefined, (error: unknown) => error);
  if (!posted || !(refusal instanceof TokenizeRefusedError)) return 'unknown';
  if (allows(posted, origin)) return 'taken';
  // A key refused is the key check's to say; a refusal naming the origin, or of the card, tells.
  if (refusal.status === 401 || (refusal.status === 403 && !/origin/i.test(refusal.id))) return 'unknown';
  return 'refused';
}

/** The origins the tokenizer refuses to pages, each asked apart: one that cannot be told leaves the others. */
async function refusedOrigins(tokenizer: TokenizerToCheck, origins: readonly string[], signal: AbortSignal, send: typeof globalThis.fetch): Promise<{ refused: string[]; told: number }> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(CHECK_TIMEOUT_MS)]);
  const checked = origins.slice(0, MOST_ORIGINS);
  const verdicts = await Promise.all(checked.map((origin) => verdictFor(tokenizer, origin, timeout, send).catch((): Verdict => 'unknown')));
  return { refused: checked.filter((_, i) => verdicts[i] === 'refused'), told: verdicts.filter((verdict) => verdict !== 'unknown').length };
}

export async function checkTokenizerOrigins(
  tokenizer: TokenizerToCheck,
  origins: readonly string[],
  logger: Logger,
  signal: AbortSignal,
  send: typeof globalThis.fetch = globalThis.fetch,
): Promise<void> {
  const { refused, told } = await refusedOrigins(tokenizer, origins, signal, send);
  if (signal.aborted || told === 0) return;
  if (refused.length === 0) return logger.debug('the gateway’s tokenizer takes pages from every allowed origin', { tokenizer: tokenizer.url, origins: origins.slice(0, MOST_ORIGINS) });
  const pages = refused.join(', ');
  // A warning: such a page's customers still pay, on the gateway's page.
  logger.warn(
    `the gateway’s tokenizer at ${tokenizer.url} does not let pages at ${pages} call it (its answers do not name ${refused.length > 1 ? 'those origins' : 'that origin'} for CORS), so <pay-form> on ${refused.length > 1 ? 'them' : 'it'} cannot take a card and sends every customer to the gateway’s page: ` +
      `add ${refused.length > 1 ? 'them' : 'it'} to the widget origins of the gateway project PAYFORM_GATEWAY_WIDGET_KEY belongs to (the sandbox: widget_origins in its projects file); ` +
      'an origin in PAYFORM_ALLOWED_ORIGINS only for customers coming back (no card form on its pages) needs nothing',
    { tokenizer: tokenizer.url, origins: refused },
  );
}
