/**
 * The gateway's card tokenizer (gateway-notes.md, "Card tokenization"): a signed card in, a
 * single-use token out, or `{ id, errorMessage, hint? }` with a 4xx. The request is checked in
 * the order a caller can fix it: the body's form, the widget key, the signature, the page's
 * origin, then the card. The card number goes no further than `readCard`.
 */
import { timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { sealRichAnswer } from '@payform/gateway';
import { signTokenizeBody } from '@payform/gateway/tokenizer';
import type { TokenizeBody } from '@payform/gateway/tokenizer';
import { CardCvv, CardNumber, ExpMonth, describeIssues, formatTimestamp, isEchoableKey, parseWire } from '@payform/gateway/wire';
import type { Project } from '../config.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { cvvProblem, hasExpired, readCard } from '../state/cards.js';

/** An answer of the tokenizer that is not a token. */
export class TokenizeRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 422,
    readonly id: string,
    readonly errorMessage: string,
    readonly hint?: string,
  ) {
    super(errorMessage);
  }

  get body(): { id: string; errorMessage: string; hint?: string } {
    return { id: this.id, errorMessage: this.errorMessage, ...(this.hint ? { hint: this.hint } : {}) };
  }
}

const MAX_FIELDS = 32;
/** Client data (platform, sdk_version, device and app fields) is signed like the card: scalars only. */
const ClientValue = z.union([z.string().max(256), z.number(), z.boolean()]);

const TokenizeRequest = z
  .object({
    card_number: CardNumber,
    card_exp_month: ExpMonth,
    /** Two digits in the SDK's example; four are read too. */
    card_exp_year: z.number().int().refine((year) => (year >= 0 && year < 100) || (year >= 2000 && year < 2100), { error: 'must be two digits, or four from 2000 to 2099' }),
    card_cvv: CardCvv,
    rich: z.boolean().optional(),
  })
  .catchall(ClientValue);

export interface Tokenized {
  readonly project: Project;
  readonly answer: { token: string } | { data: string };
}

/**
 * Where a request's page may call the tokenizer from: the project's origins, or this machine's
 * when it names none (`*.localhost` too, which browsers take to loopback themselves).
 */
export function originAllowed(project: Project, origin: string): boolean {
  if (project.widgetOrigins.length > 0) return project.widgetOrigins.includes(origin);
  return /^http:\/\/(([a-z\d-]+\.)*localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);
}

export async function tokenize(gateway: SimulatedGateway, request: { text: string; widgetId?: string; sign?: string; origin?: string }): Promise<Tokenized> {
  const body = readBody(request.text);
  const project = request.widgetId === undefined ? undefined : gateway.projectByWidgetKey(request.widgetId);
  if (!project) throw new TokenizeRefusal(401, 'unknown_widget', 'X-Widget-Id names no widget', 'Send the project’s widget key as X-Widget-Id');
  const signature = await signatureProblem(project.widgetKey, body, request.sign);
  if (signature) throw new TokenizeRefusal(401, 'invalid_signature', signature, 'X-Sign is hex(HMAC-SHA256(widget key, the values concatenated in the order of their sorted keys))');
  if (request.origin !== undefined && !originAllowed(project, request.origin)) {
    throw new TokenizeRefusal(403, 'origin_not_allowed', `Pages of ${request.origin} may not tokenize cards for this project`, 'Add the origin to the project’s widget origins');
  }
  const parsed = parseWire(TokenizeRequest, body);
  if (!parsed.success) {
    // A number sent that is no card's is the card's refusal; one left out is the request's.
    const luhn = body.card_number === undefined ? undefined : parsed.issues.find((issue) => issue.field === 'card_number');
    if (luhn) throw new TokenizeRefusal(422, 'invalid_card_number', `card_number ${luhn.reason}`);
    throw new TokenizeRefusal(400, 'invalid_request', describeIssues(parsed.issues));
  }
  const fields = parsed.data;
  const expYear = fields.card_exp_year < 100 ? 2000 + fields.card_exp_year : fields.card_exp_year;
  const card = readCard(fields.card_number, fields.card_exp_month, expYear);
  const cvv = cvvProblem(card.brand, fields.card_cvv);
  if (cvv) throw new TokenizeRefusal(422, 'invalid_cvv', `card_cvv ${cvv}`);
  const now = gateway.clock.now();
  if (hasExpired(card.expMonth, card.expYear, now)) throw new TokenizeRefusal(422, 'card_expired', 'The card has expired');
  if (fields.rich && Buffer.byteLength(project.apiSecret, 'utf8') !== 32) {
    throw new TokenizeRefusal(422, 'rich_unavailable', 'Rich answers are encrypted with the project’s secret key, which is not 32 bytes long', 'Ask without rich, or give the project a 32-byte API secret');
  }
  const expiresAt = new Date(now.getTime() + gateway.config.timings.widgetTokenLifespanMs);
  const token = gateway.widgetTokens.issue(project.posId, card, expiresAt, now);
  if (!fields.rich) return { project, answer: { token } };
  const data = sealRichAnswer({ token, expires_at: formatTimestamp(expiresAt), card_mask: card.mask }, project.apiSecret);
  return { project, answer: { data } };
}

function readBody(text: string): TokenizeBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TokenizeRefusal(400, 'invalid_request', 'The body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TokenizeRefusal(400, 'invalid_request', 'The body must be a JSON object');
  const entries = Object.entries(body);
  if (entries.length > MAX_FIELDS) throw new TokenizeRefusal(400, 'invalid_request', `The body has more than ${MAX_FIELDS} fields`);
  const nested = entries.find(([, value]) => !ClientValue.safeParse(value).success);
  // Named only when it cannot be card data: a card number sent as a key is not echoed.
  if (nested) throw new TokenizeRefusal(400, 'invalid_request', `${isEchoableKey(nested[0]) ? nested[0] : 'A field'} must be a string (at most 256 characters), a number or a boolean`);
  return body as TokenizeBody;
}

/** Why X-Sign does not sign the body, if it does not. */
async function signatureProblem(widgetKey: string, body: TokenizeBody, sign: string | undefined): Promise<string | undefined> {
  if (sign === undefined) return 'X-Sign is missing: every request is signed with the widget key';
  if (!/^[\da-f]{64}$/i.test(sign)) return 'X-Sign must be 64 hex digits (an HMAC-SHA256)';
  const expected = Buffer.from(await signTokenizeBody(widgetKey, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(sign, 'hex')) ? undefined : 'X-Sign does not match the request';
}
