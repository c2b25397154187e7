/**
 * A secret of the companion's also held in a variable a front-end build puts into the pages it
 * makes (`VITE_PAYFORM_ADMIN_TOKEN` for a session opened from the browser, say): anyone who loads
 * the shop reads it there. Found by value, whatever the variable is called, and never quoted.
 */
import { TEST_PROJECT_DEFAULTS } from '@payform/gateway/testing';
import type { Env } from './environment.js';

/** Vite's (React Router, SvelteKit, Nuxt, Astro), Next.js's, SvelteKit's and Astro's, Nuxt's, Create React App's, Expo's, Gatsby's. */
const BROWSER_BUILD_PREFIX = /^(VITE_|NEXT_PUBLIC_|PUBLIC_|NUXT_PUBLIC_|REACT_APP_|EXPO_PUBLIC_|GATSBY_)/;

/** Each secret, and what someone holding it can do. */
const SECRETS: Readonly<Record<string, string>> = {
  PAYFORM_ADMIN_TOKEN: 'refund, void and capture every order, and read every customer',
  PAYFORM_GATEWAY_API_SECRET: "call the gateway as the shop and sign webhooks the companion takes as the gateway's",
  PAYFORM_GATEWAY_API_SECRET_PREVIOUS: "sign webhooks the companion takes as the gateway's",
  PAYFORM_GATEWAY_ENDPOINTS_KEY: "call the gateway's money-moving endpoints as the shop, with the API secret",
  PAYFORM_METRICS_TOKEN: 'read the metrics',
  PAYFORM_NOTIFY_SECRET: "sign payment changes the shop's backend takes as the companion's (a paid order it never was)",
};

/** The sandbox's test project's, published in its docs: public already, and no real gateway takes them. */
const PUBLISHED = new Set([TEST_PROJECT_DEFAULTS.apiSecret, TEST_PROJECT_DEFAULTS.endpointsKey]);

/** One line per secret found in such a variable: said at start, as a warning. */
export function browserExposedSecrets(env: Env): string[] {
  const exposed = Object.keys(env).filter((name) => BROWSER_BUILD_PREFIX.test(name));
  if (exposed.length === 0) return [];
  return Object.entries(SECRETS).flatMap(([secret, allows]) => {
    const value = env[secret];
    const holders = value === undefined || PUBLISHED.has(value) ? [] : exposed.filter((name) => env[name] === value);
    if (holders.length === 0) return [];
    return [
      `${secret}'s value is also in ${holders.join(', ')}, a variable a front-end build puts into the pages it makes: anyone who loads the shop can read it there and ${allows}. ` +
        `Keep it in server-only variables (call the companion from your server, not the browser), and replace it: it may be public already`,
    ];
  });
}
