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
