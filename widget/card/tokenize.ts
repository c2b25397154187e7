/**
 * The gateway's card tokenizer (gateway-notes.md, "Card tokenization"), as a browser calls it: the
 * card goes straight from the customer's browser to the gateway's widget host, and only the token
 * it answers goes on to the merchant's server. Browser-safe: fetch and WebCrypto, no Node APIs.
 * The sandbox verifies signatures with the same `signTokenizeBody`, so both ends read the rule once.
 *
 *   const token = await tokenizeCard({ url, widgetKey }, { number, expMonth, expYear, cvv });
 *   const sealed = await sealedCardToken({ url, widgetKey }, card);   // for the merchant's server only
 *
 * Errors: `TokenizeRefusedError` (the tokenizer answered no: `status`, `id`, `hint`) and
 * `TokenizerUnreachableError` (no usable answer: network, 5xx, a body that is not the interface's),
 * both `TokenizeError`s. Only the unreachable case is worth a fallback to the hosted page.
 */

export interface TokenizerSettings {
  /** `{widget host}/api/v1/sdk/tokenize`. */
  readonly url: string;
  /** The project's widget key: sent as X-Widget-Id and the key of X-Sign. */
  readonly widgetKey: string;
  readonly fetch?: typeof globalThis.fetch;
  /** How long the tokenizer has to answer before it counts as unreachable: whole ms, TOKENIZE_TIMEOUT_MS by default. */
  readonly timeoutMs?: number;
}

/**
 * A tokenizer that has not answered by then is out of reach: without a limit a hung widget host
 * kept the customer on "Processing payment…" for as long as the browser kept the connection.
 */
export const TOKENIZE_TIMEOUT_MS = 15_000;

/** Timers hold at most this (2^31 - 1 ms, about 24.8 days): past it Node throws, and a browser may fire at once. */
const LONGEST_TIMEOUT_MS = 2_147_483_647;

/**
 * The tokenizer's time limit as a signal. A limit no timer can hold is the page's mistake, thrown
 * as such: read as an unreachable tokenizer, it would send every customer to the hosted page.
 */
function timeLimit(timeoutMs = TOKENIZE_TIMEOUT_MS): AbortSignal {
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > LONGEST_TIMEOUT_MS) {
    throw new RangeError(`timeoutMs must be a whole number of milliseconds from 1 to ${LONGEST_TIMEOUT_MS} (it is ${String(timeoutMs)})`);
  }
  return AbortSignal.timeout(timeoutMs);
}

export interface CardToTokenize {
  /** Digits only. */
  readonly number: string;
  readonly expMonth: number;
  /** Two or four digits. */
  readonly expYear: number;
  readonly cvv: string;
}

/** The request body: snake_case, scalar values only (each is part of the signature). */
export type TokenizeBody = Readonly<Record<string, string | number | boolean>>;

export class TokenizeError extends Error {
  // A literal, not the class's own name: a merchant's minifier renames classes, and the console would say `o: …`.
  override name = 'TokenizeError';
}

/** The tokenizer refused the request: a bad signature, an unknown widget key, a card number failing Luhn… */
export class TokenizeRefusedError extends TokenizeError {
  constructor(
    readonly status: number,
    /** The error body's `id`. */
    readonly id: string,
    readonly hint?: string,
  ) {
    super(`The tokenizer refused the card (${status} ${id})`);
  }

  override name = 'TokenizeRefusedError';
}

/** No usable answer: the widget host could not be reached, failed (5xx) or answered something else. */
export class TokenizerUnreachableError extends TokenizeError {
  override name = 'TokenizerUnreachableError';
}

/** The signed message: the body's values concatenated in the order of their sorted keys. */
export function signingMessage(body: TokenizeBody): string {
  return Object.keys(body)
    .sort()
    .map((key) => String(body[key]))
    .join('');
}

/** hex(HMAC-SHA256(key, message)) with WebCrypto. */
export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const text = new TextEncoder();
  const hmacKey = await crypto.subtle.importKey('raw', text.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, text.encode(message)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** X-Sign of a body. */
export const signTokenizeBody = (widgetKey: string, body: TokenizeBody): Promise<string> => hmacSha256Hex(widgetKey, signingMessage(body));

/** The body for a card; `rich` asks for the encrypted answer that only the merchant's server can read. */
export function tokenizeBody(card: CardToTokenize, rich = false): TokenizeBody {
  return {
    card_number: card.number,
    card_exp_month: card.expMonth,
    card_exp_year: card.expYear % 100,
    card_cvv: card.cvv,
    platform: 'web',
    sdk_version: 'payform-0.3',
    ...(rich ? { rich: true } : {}),
  };
}

/**
 * Sends a signed body; the answer's JSON on a 2xx. A request that got no answer at all (a
 * connection dropped: a mobile network's blip) is sent once more within the same time limit, where
 * the widget would send the customer to the hosted page to type the card again. Tokenizing twice
 * moves no money.
 */
export async function postToTokenizer(settings: TokenizerSettings, body: TokenizeBody): Promise<Record<string, unknown>> {
  const send = settings.fetch ?? globalThis.fetch;
  const signal = timeLimit(settings.timeoutMs);
  let answer: Response;
  let json: unknown;
  try {
    const request: RequestInit = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Widget-Id': settings.widgetKey, 'X-Sign': await signTokenizeBody(settings.widgetKey, body) },
      body: JSON.stringify(body),
      credentials: 'omit',
      signal,
    };
    answer = await send(settings.url, request).catch((error: unknown) => (signal.aborted ? Promise.reject(error) : send(settings.url, request)));
    json = await answer.json();
  } catch (cause) {
    throw new TokenizerUnreachableError('The tokenizer could not be reached', { cause });
  }
  const fields = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if (answer.ok) return fields;
  if (answer.status >= 500 || typeof fields.id !== 'string') throw new TokenizerUnreachableError(`The tokenizer failed with ${answer.status}`);
  throw new TokenizeRefusedError(answer.status, fields.id, typeof fields.hint === 'string' ? fields.hint : undefined);
}

/** The card's token, to pay with as `cc_token`. */
export function tokenizeCard(settings: TokenizerSettings, card: CardToTokenize): Promise<string> {
  return answered(settings, card, 'token');
}

/**
 * The card's token sealed for the merchant's server (`rich: true`): only the merchant's secret
 * key opens it, so a card token got anywhere else cannot be passed off as one the customer just
 * typed. What `<pay-form>` sends its companion.
 */
export function sealedCardToken(settings: TokenizerSettings, card: CardToTokenize): Promise<string> {
  return answered(settings, card, 'data');
}

async function answered(settings: TokenizerSettings, card: CardToTokenize, field: 'token' | 'data'): Promise<string> {
  const value = (await postToTokenizer(settings, tokenizeBody(checkedCard(card), field === 'data')))[field];
  if (typeof value !== 'string' || value === '') throw new TokenizerUnreachableError(`The tokenizer answered without its ${field}`);
  return value;
}

/**
 * The card as CardToTokenize names its fields, or a TypeError naming the one that is not: a
 * caller writing the pay API's `exp_month` sent no month, and the tokenizer's refusal said no more
 * than `invalid_request`. Nothing of the card's value is said.
 */
function checkedCard(card: CardToTokenize): CardToTokenize {
  const given = (card ?? {}) as unknown as Record<string, unknown>;
  const wrong = [
    typeof given.number === 'string' && /^\d{12,19}$/.test(given.number) ? '' : 'number (12 to 19 digits, as a string)',
    Number.isInteger(given.expMonth) && (given.expMonth as number) >= 1 && (given.expMonth as number) <= 12 ? '' : 'expMonth (1 to 12)',
    Number.isInteger(given.expYear) && (given.expYear as number) >= 0 && (given.expYear as number) <= 9999 ? '' : 'expYear (2 or 4 digits)',
    typeof given.cvv === 'string' && /^\d{3,4}$/.test(given.cvv) ? '' : 'cvv (3 or 4 digits, as a string)',
  ].filter(Boolean);
  if (wrong.length === 0) return card;
  throw new TypeError(`The card to tokenize must be { number, expMonth, expYear, cvv }: ${wrong.join(', ')} is missing or not that`);
}
