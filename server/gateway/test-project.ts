/**
 * The well-known test project: the credentials the bundled sandbox accepts by default and the
 * companion uses by default, and the sandbox's test cards. Shared here because the companion
 * and the demo must not import the sandbox, yet all three have to agree on these values.
 *
 * Every credential can be replaced through the environment (PAYFORM_GATEWAY_POS_ID,
 * PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_API_SECRET, PAYFORM_GATEWAY_ENDPOINTS_KEY; the 0.2
 * names without the PAYFORM_ prefix are still read); the sandbox then accepts the replaced ones.
 */

export interface ProjectCredentials {
  readonly posId: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** Sent as X-API-KEY. */
  readonly endpointsKey: string;
}

/** Fixed values: safe to publish, they only ever open the offline sandbox. */
export const TEST_PROJECT_DEFAULTS: ProjectCredentials = {
  posId: '5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15',
  apiKey: 'sandbox-test-api-key',
  // 32 bytes: the tokenizer's rich answers are AES-256 with the secret's UTF-8 bytes as the key.
  apiSecret: 'sandbox-test-api-secret-32-bytes',
  endpointsKey: 'sandbox-test-endpoints-key',
};

/**
 * The test project's widget key: the public id of its card tokenizer (X-Widget-Id) and the key of
 * the requests' signature (X-Sign). Browsers see it; it opens nothing but tokenization.
 */
export const TEST_WIDGET_KEY = 'sandbox-test-widget-key';

/** The test project's credentials, each taken from the environment when set there. */
export function testProjectCredentials(env: Readonly<Record<string, string | undefined>> = process.env): ProjectCredentials {
  // The prefixed name wins; the unprefixed one of 0.2 is the fallback (the companion warns of it).
  const pick = (name: string, fallback: string) => env[`PAYFORM_${name}`]?.trim() || env[name]?.trim() || fallback;
  return {
    // A UUID in any case is the same id; requests' are read in lower case, so this one is too.
    posId: pick('GATEWAY_POS_ID', TEST_PROJECT_DEFAULTS.posId).toLowerCase(),
    apiKey: pick('GATEWAY_API_KEY', TEST_PROJECT_DEFAULTS.apiKey),
    apiSecret: pick('GATEWAY_API_SECRET', TEST_PROJECT_DEFAULTS.apiSecret),
    endpointsKey: pick('GATEWAY_ENDPOINTS_KEY', TEST_PROJECT_DEFAULTS.endpointsKey),
  };
}

/**
 * Sub-merchants of the test project's split payments. On the live service support issues
 * them; the sandbox accepts these (and the ones a sandbox config adds) in `split` arrays.
 */
export const TEST_SUB_MERCHANTS = [
  { id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', name: 'Sub-merchant A' },
  { id: 'c4e7b1d9-2a83-4f65-8b1c-9d0e6a2f4b71', name: 'Sub-merchant B' },
  { id: 'f29d6a04-7c1b-4e38-9a5f-3b8c0d1e7a92', name: 'Sub-merchant C' },
] as const;

/** What the sandbox does with a card. */
export type TestCardOutcome =
  | 'success'
  | 'three_ds_challenge'
  | 'rejected'
  | 'insufficient_funds'
  | 'expired'
  | 'slow_pending';

export type CardBrand = 'visa' | 'mastercard' | 'amex';

export interface TestCard {
  /** Digits only. */
  readonly number: string;
  readonly brand: CardBrand;
  readonly outcome: TestCardOutcome;
  /**
   * The status code the card leads to: 1000 stands for a purchase (an auth answers 1002),
   * 2122 and 2119 are pending codes resolved later.
   */
  readonly statusCode: '1000' | '2122' | '4153' | '4009' | '4001' | '2119';
  /** What happens, for people (the demo's and the checkout page's test-card lists). */
  readonly label: string;
}

/** The sandbox's test cards (design.md). Any future expiry and any CVV of the brand's length work. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', outcome: 'success', statusCode: '1000', label: 'Success without 3-D Secure' },
  { number: '5454545454545454', brand: 'mastercard', outcome: 'success', statusCode: '1000', label: 'Success without 3-D Secure' },
  { number: '378282246310005', brand: 'amex', outcome: 'success', statusCode: '1000', label: 'Success without 3-D Secure' },
  { number: '4000000000003220', brand: 'visa', outcome: 'three_ds_challenge', statusCode: '2122', label: '3-D Secure challenge: the challenge page decides' },
  { number: '4000000000000002', brand: 'visa', outcome: 'rejected', statusCode: '4153', label: 'Declined: transaction rejected' },
  { number: '4000000000009995', brand: 'visa', outcome: 'insufficient_funds', statusCode: '4009', label: 'Declined: insufficient funds' },
  { number: '4000000000000069', brand: 'visa', outcome: 'expired', statusCode: '4001', label: 'Declined: card expired' },
  { number: '4000000000000119', brand: 'visa', outcome: 'slow_pending', statusCode: '2119', label: 'Pending (processing), then success by webhook' },
];

/** Groups of four (Amex 4-6-5), as printed on the card. */
export function formatCardNumber(number: string): string {
  if (/^3[47]\d{13}$/.test(number)) return `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}`;
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}
