/**
 * Where the companion lets the gateway send a customer's browser (3-D Secure page, hosted
 * checkout): `https:` only, or the sandbox's origin when one is configured for development.
 * Anything else in a gateway answer is treated as if the gateway had sent no address.
 */
export function isAllowedRedirect(url: string | null | undefined, sandboxOrigin: string | undefined): url is string {
  if (!url) return false;
  try {
    const target = new URL(url);
    if (target.username || target.password) return false;
    return target.protocol === 'https:' || (sandboxOrigin !== undefined && target.origin === sandboxOrigin);
  } catch {
    return false;
  }
}

/**
 * What the log says when a gateway address on `origin` is refused: the setting a development
 * gateway needs — or, when one is set, that it names another origin (`localhost` for a sandbox
 * at `127.0.0.1` is one), since "needs its origin" alone reads as already done.
 */
export function unsafeRedirectFix(origin: string | null, sandboxOrigin: string | undefined): string {
  if (sandboxOrigin === undefined || origin === null || !origin.startsWith('http:')) {
    // The bin in production refuses the variable: a sandbox there is run in development instead.
    return (
      'a sandbox or test gateway serving plain http pages needs its origin in PAYFORM_SANDBOX_ORIGIN (the sandboxOrigin option), ' +
      'which the companion in production (NODE_ENV=production) refuses: run it against a sandbox in development; the live gateway sends https'
    );
  }
  // Set, or taken from the gateway's URL on this machine: said so either way.
  return `the sandbox origin is ${sandboxOrigin} (PAYFORM_SANDBOX_ORIGIN or the sandboxOrigin option, else the gateway URL's own origin), not ${origin} the gateway sends the customer to: set PAYFORM_SANDBOX_ORIGIN to ${origin} if that is the sandbox; the live gateway sends https`;
}

/** The origin of an address for a log line (not its path or query, which may carry a token); `null` when it is none. */
export function originOf(url: string | null | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}
