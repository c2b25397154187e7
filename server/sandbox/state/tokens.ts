/**
 * cc_token issuance and lookup. A successful card payment or lookup issues a token for its
 * card (the same card in the same project keeps its token); a later direct payment may send the
 * token instead of the card. Tokens prefixed `rcr:` come from a first wallet payment on the live
 * service: the sandbox accepts any such token as a wallet card that pays successfully.
 */
import { randomHex } from './identifiers.js';
import type { CardOnFile } from './records.js';

export interface IssuedToken {
  readonly value: string;
  /** TIMESTAMP of the card's last valid moment. */
  readonly expiration: string;
}

const WALLET_PREFIX = 'rcr:';

/** A wallet payment's card: a Visa device number the wallet does not reveal. */
function walletCard(token: string): CardOnFile {
  return {
    brand: 'visa',
    mask: '489537******2010',
    expMonth: 12,
    expYear: 2099,
    behaviour: 'wallet',
    payway: /google/i.test(token) ? 'google_pay' : 'apple_pay',
  };
}

export class CardVault {
  readonly #cards = new Map<string, { readonly posId: string; readonly card: CardOnFile }>();
  readonly #tokens = new Map<string, string>();

  /** The token for this card in this project, issued on first use. */
  issue(posId: string, card: CardOnFile): IssuedToken {
    const key = `${posId}|${card.mask}|${card.expMonth}|${card.expYear}`;
    let value = this.#tokens.get(key);
    if (value === undefined) {
      value = randomHex(20);
      this.#tokens.set(key, value);
      this.#cards.set(value, { posId, card });
    }
    return { value, expiration: tokenExpiration(card) };
  }

  /** The card behind a token sent with a payment of `posId`; undefined for an unknown token. */
  resolve(posId: string, token: string): CardOnFile | undefined {
    if (token.startsWith(WALLET_PREFIX) && token.length > WALLET_PREFIX.length) return walletCard(token);
    const entry = this.#cards.get(token);
    return entry?.posId === posId ? entry.card : undefined;
  }

  clear(): void {
    this.#cards.clear();
    this.#tokens.clear();
  }
}

/** A token is valid as long as its card: to the last second of the expiry month. */
export function tokenExpiration(card: Pick<CardOnFile, 'expMonth' | 'expYear'>): string {
  const lastDay = new Date(Date.UTC(card.expYear, card.expMonth, 0)).getUTCDate();
  return `${card.expYear}-${String(card.expMonth).padStart(2, '0')}-${String(lastDay).padStart(2, '0')}T23:59:59`;
}
