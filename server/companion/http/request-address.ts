/**
 * The address a request came to, as a URL — or undefined when its Host is no host a URL can
 * hold (`xn--`, `1.2.3.256`): @hono/node-server checks a Host by its characters only and lets
 * those through, so `new URL(c.req.url)` throws on them, a 500 any client could cause.
 */
export function requestAddress(requestUrl: string): URL | undefined {
  return URL.parse(requestUrl) ?? undefined;
}
