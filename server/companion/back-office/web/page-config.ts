/**
 * What the companion tells the page when it serves it, in a JSON data block
 * (`<script type="application/json" id="payform-back-office">`: data, not code, so the strict
 * CSP stands): where the merchant API is — the companion may be mounted under a base path — and
 * the sellers a split payment is shared between (the `backOffice.subMerchants` option), and the
 * merchant's sector (`merchantSector`: a microfinance charge asks for the borrower's details).
 */
export interface SubMerchant {
  /** The gateway's sub-merchant id (a UUID). */
  readonly id: string;
  /** How the back office names it. */
  readonly name: string;
}

export interface PageConfig {
  /** Where browsers reach the companion, from the page's origin: its public URL's path and base path (`''`, `/payments`, `/pay` behind a proxy that strips it). The API is under `<apiBase>/api`. */
  readonly apiBase: string;
  readonly subMerchants: readonly SubMerchant[];
  readonly merchantSector: 'microfinance' | 'igaming' | null;
}

let config: PageConfig | undefined;

export function pageConfig(): PageConfig {
  if (!config) {
    const block = document.getElementById('payform-back-office')?.textContent;
    const read = block ? (JSON.parse(block) as Partial<PageConfig>) : {};
    config = { apiBase: read.apiBase ?? '', subMerchants: read.subMerchants ?? [], merchantSector: read.merchantSector ?? null };
  }
  return config;
}

/** `/api/orders` → `/payments/api/orders` under a base path. */
export const apiPath = (path: string) => `${pageConfig().apiBase}${path}`;

export const subMerchantName = (id: string) => pageConfig().subMerchants.find((seller) => seller.id.toLowerCase() === id.toLowerCase())?.name ?? id;
