import type { SessionView } from './session-view.js';

/**
 * Where the widget may send the customer (3-D Secure page, hosted checkout): `https:` only, or an
 * `http:`/`https:` address of the sandbox's own origin when the session is a test one (the sandbox
 * runs on plain http locally) — whatever the companion answers. The scheme is checked, not just
 * the origin: `javascript:` and `data:` URLs have the opaque origin "null", which a view could name.
 */
export function mayRedirect(url: string, view?: SessionView): boolean {
  try {
    const target = new URL(url);
    if (target.protocol === 'https:') return true;
    return view?.test === true && target.protocol === 'http:' && target.origin === view.sandbox_origin;
  } catch {
    return false;
  }
}
