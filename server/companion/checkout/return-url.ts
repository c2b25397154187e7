/**
 * The merchant's `return_url`: where the customer is sent after 3-D Secure or the hosted page,
 * the session id in its query. It must be `https:`, so that id (a capability) travels
 * encrypted; plain http only in development — when a sandbox origin is configured, which
 * production refuses — for the sandbox and this machine. A `user:password@` would hand those
 * credentials to every customer's browser: never.
 */
import { isBrowserLoopbackHost } from '../loopback.js';

/** Why `url` (already an http(s) URL) cannot be a return URL, or undefined when it can. */
export function returnUrlProblem(url: string, sandboxOrigin: string | undefined): string | undefined {
  const target = new URL(url);
  if (target.username || target.password) return 'must not carry a user name or password';
  if (target.protocol === 'https:') return undefined;
  const development = sandboxOrigin !== undefined && (target.origin === sandboxOrigin || isBrowserLoopbackHost(target.hostname));
  return development ? undefined : 'must be an https: URL (the session id travels in it)';
}
