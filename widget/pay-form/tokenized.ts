import { sealedCardToken, TokenizeRefusedError, TokenizerUnreachableError } from '@payform/card/tokenize';
import { CompanionError, type PayRequest } from '../checkout/companion.js';
import type { SessionView } from '../checkout/session-view.js';
import type { FieldName } from '../events.js';
import type { FieldError } from './pay-form.js';
import '../index.js'; // keeps the form's modules in one chunk under esbuild: see index.ts

/**
 * Tokenize mode (the session names the gateway's tokenizer): the card goes from this browser to
 * the gateway, and the pay request carries only its token. Undefined when the tokenizer cannot be
 * reached and the session offers the hosted page instead. A refusal of the card shows on its
 * field (`CardRefused`); one of the widget key, the page or the project is the developer's to
 * fix (`misconfigured`). A module of its own, loaded on demand, so that relay mode does not pay
 * for it in bundle size.
 */
export async function tokenized(request: PayRequest, view: SessionView): Promise<PayRequest | undefined> {
  const { url, widget_key: widgetKey } = view.tokenizer!;
  // A saved card pays with its id. (The companion checks that the tokenizer is https: or the sandbox.)
  if (!('number' in request.card)) return request;
  const { number, exp_month: expMonth, exp_year: expYear, cvv } = request.card;
  try {
    // Sealed for the companion (rich): it pays only with a token this card's tokenization made.
    return { ...request, card: { token: await sealedCardToken({ url, widgetKey }, { number, expMonth, expYear, cvv }) } };
  } catch (error) {
    if (error instanceof TokenizerUnreachableError) {
      // Offline, nothing is the page's to fix, and the hosted page would not load either.
      if (!navigator.onLine) throw new CompanionError('network');
      // The developer learns why, fallback or not: a page whose Content-Security-Policy leaves the
      // tokenizer out, or whose origin the project does not take, looks to the fetch as a network
      // down does, and would send every customer away. A fetch the browser failed is told apart
      // first (a 5xx, a late or unreadable answer is the tokenizer's), a second at most: a page
      // that navigates may clear its console.
      const hosted = view.modes.includes('hosted');
      const fetchFailed = error.cause instanceof TypeError;
      const plain = fetchFailed
        ? { error: false, why: `if the network is up, allow ${new URL(url).origin} in the page's Content-Security-Policy connect-src, and ${location.origin} in the gateway project's widget origins` }
        : { error: false, why: `its answer was late or unusable (${error.message})` };
      const diagnosis = fetchFailed ? import('../checkout/diagnose.js').then(({ tokenizerUnanswered }) => tokenizerUnanswered(url), () => plain) : Promise.resolve(plain);
      const { error: wrong, why } = await Promise.race([diagnosis, new Promise<typeof plain>((resolve) => setTimeout(resolve, DIAGNOSIS_WAIT_MS, plain))]);
      console[wrong ? 'error' : 'warn'](`<pay-form>: the gateway's tokenizer at ${url} did not answer this page: ${why}${hosted ? '; the customer pays on the hosted page instead' : ''}`, error);
      if (hosted) return undefined;
      // No page to fall back on: the customer may try again.
      throw new CompanionError('network');
    }
    if (!(error instanceof TokenizeRefusedError)) throw error;
    const refused = CARD_REFUSALS.get(error.id);
    if (refused) throw new CardRefused(error.status, ...refused);
    if (error.status === 401 || error.status === 403) {
      throw misconfigured(url, error, `set the companion's PAYFORM_GATEWAY_WIDGET_KEY to the project's widget key, and allow ${location.origin} in the gateway project`);
    }
    if (error.id === 'rich_unavailable') {
      throw misconfigured(url, error, "give the companion the widget key (PAYFORM_GATEWAY_WIDGET_KEY) and API secret (PAYFORM_GATEWAY_API_SECRET) of one gateway project: it cannot seal this card's token for the companion");
    }
    // A request the form's checks passed and the tokenizer did not: nothing the customer can
    // correct, and no payment was made. The developer hears which; the customer may try again.
    const reason = `the gateway's tokenizer at ${url} refused the card (HTTP ${error.status} ${error.id}): the form's own checks passed it`;
    console.error(`<pay-form>: ${reason}`);
    throw new CompanionError('rejected', error.status, [], reason);
  }
}

/** How long the customer waits, at most, for the widget to tell the developer why the tokenizer did not answer. */
const DIAGNOSIS_WAIT_MS = 1_000;

/**
 * The tokenizer's refusals of the card (by the error's `id`; the envelope names no field): the
 * field at fault and the error it shows, in the customer's language. The form checks each of
 * these itself, but the gateway may judge otherwise: its clock says the card expired, or it
 * knows a brand's security code to be longer.
 */
const CARD_REFUSALS = new Map<string, [FieldName, FieldError]>([
  ['invalid_card_number', ['number', 'invalid']],
  ['card_expired', ['exp', 'expired']],
  ['invalid_cvv', ['cvv', 'refused']],
]);

/** The tokenizer refused the card: its `field` shows the error it `shows` (refusals.ts, `markRefused`), and has focus. */
export class CardRefused extends CompanionError {
  constructor(
    status: number,
    field: FieldName,
    readonly shows: FieldError,
  ) {
    super('rejected', status, [field]);
  }
}

/**
 * The tokenizer refused the widget key, this page or the project, not the card: a companion or a
 * gateway project set up wrong, told to the developer with its `fix`; the customer sees the calm message.
 */
function misconfigured(url: string, error: TokenizeRefusedError, fix: string): CompanionError {
  const reason = `the gateway's tokenizer at ${url} refused this page (HTTP ${error.status} ${error.id}${error.hint ? `: ${error.hint}` : ''}): ${fix}`;
  console.error(`<pay-form>: ${reason}`);
  return new CompanionError('misconfigured', error.status, [], reason);
}
