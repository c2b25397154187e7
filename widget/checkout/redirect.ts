import type { SessionView } from './session-view.js';

/**
 * Where the widget may send the customer (3-D Secure page, hosted checkout): `https:` only,
 * or the sandbox's own origin when the session is a test one (the sandbox runs on plain http locally).
 */
export function mayRedirect(url: string, view?: SessionView): boolean {
  try {
    const target = new URL(url);
    return target.protocol === 'https:' || (view?.test === true && target.origin === view.sandbox_origin);
  } catch {
    return false;
  }
}
