/**
 * The companion's own requests to itself at start (operator/public-url-check.ts: a GET of its
 * webhook route, answered 405, and an empty form posted to it, answered 400) carry this header, so
 * that the request log says it at debug rather than as a refused webhook at every start. Behind a
 * balancer the probe may reach another instance: the token is the same on every instance given the
 * same gateway API secret (they share it to verify webhooks), an HMAC of it, so the secret never
 * leaves and no one without it can quiet a line.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { digest } from './guards.js';

export const OWN_PROBE_HEADER = 'payform-own-probe';

export function ownProbeToken(apiSecret: string): string {
  return createHmac('sha256', apiSecret).update('payform-own-probe').digest('base64url');
}

/**
 * Whether a header is a probe of an instance given one of `apiSecrets` — the secret, and the one
 * before it while a rotation goes from instance to instance — compared in constant time.
 */
export function ownProbeCheck(apiSecrets: readonly string[]): (sent: string | undefined) => boolean {
  const tokens = apiSecrets.map((secret) => digest(ownProbeToken(secret)));
  return (sent) => {
    if (sent === undefined) return false;
    const given = digest(sent);
    return tokens.some((token) => timingSafeEqual(token, given));
  };
}
