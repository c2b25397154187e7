/**
 * An origin setting — PAYFORM_ALLOWED_ORIGINS' entries, PAYFORM_SANDBOX_ORIGIN, and the
 * `allowedOrigins` and `sandboxOrigin` options — read one way wherever it is given. A browser
 * says only its page's origin (scheme, host, port), so a page's address
 * (`https://shop.example/checkout`) can narrow nothing: taken as its origin, it would quietly let
 * every page of that site in. It is refused at start, naming the origin to give instead. What
 * loses nothing is taken as written: a trailing slash (`https://shop.example/` is how URLs write
 * an origin), letter case, the scheme's default port.
 */
import * as z from 'zod';

/**
 * What `url` has that an origin has not, said as a refusal; undefined when nothing, or when it is
 * no http(s) URL at all: the URL check says so, and `localhost:3000` (the scheme left out) would
 * read as scheme `localhost:` with a path, its origin `null`, given as the one to set.
 */
function originProblem(url: URL | null): string | undefined {
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const extras = [
    ...(url.pathname !== '/' ? ['a path'] : []),
    ...(url.search ? ['a query'] : []),
    ...(url.hash ? ['a fragment'] : []),
    ...(url.username || url.password ? ['a user name'] : []),
  ];
  if (extras.length === 0) return undefined;
  const said = extras.length > 1 ? `${extras.slice(0, -1).join(', ')} and ${extras.at(-1)}` : extras[0];
  // Only the origin is quoted: a user name or password given by mistake is not repeated.
  return `must be an origin (scheme, host, port), not an address with ${said}: only origins are compared, so give ${url.origin} (all of its pages are then allowed)`;
}

/** An http(s) origin, as `URL.origin` writes it. */
export const Origin = z
  .string()
  // Several origins run together (`;` or spaces between them) read as one with a strange host.
  .refine((value) => !/[;\s]/.test(value.trim()), { error: 'must be one origin: separate several with commas (https://a.example,https://b.example)', abort: true })
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) origin, e.g. https://shop.example' }))
  .superRefine((url, ctx) => {
    const problem = originProblem(URL.parse(url));
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((url) => new URL(url).origin);
