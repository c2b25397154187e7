import type { SessionView } from './session-view.js';

/**
 * Where the widget may send the customer (3-D Secure page, hosted checkout): `https:` only, or an
 * `http:`/`https:` address of the sandbox's own origin when the session is a test one (the sandbox
 * runs on plain http locally) — whatever the companion answers. The scheme is checked, not just
 * the origin: `javascript:` and `data:` URLs have the opaque origin "null", which a view could name.
 * Answers why not, for the developer (undefined: it may go there); only the address's origin or
 * scheme is said, as the rest may carry the challenge's token.
 */
export function redirectRefusal(url: string, view?: SessionView): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'the companion sent no absolute address to go to';
  }
  if (target.protocol === 'https:') return undefined;
  if (target.protocol !== 'http:') return `a ${target.protocol} address is never gone to`;
  const sent = `the companion sent the customer to ${target.origin}, plain http`;
  if (view?.test !== true) return `${sent}, outside a test session (PAYFORM_TEST_MODE off): give it the gateway's https address, or turn test mode on against a sandbox`;
  if (target.origin !== view.sandbox_origin) return `${sent}, not the sandbox's origin (${view.sandbox_origin}): set PAYFORM_SANDBOX_ORIGIN to it`;
  return undefined;
}
