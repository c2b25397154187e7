/**
 * The back office's one option, `backOffice` in createCompanion's config (PAYFORM_BACK_OFFICE for
 * the `payform-companion` bin): off unless given, checked at start with the rest of the config.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { Uuid } from '@payform/gateway/wire';

export interface BackOfficeConfig {
  /** Where the page is, below the companion's base path: `/admin` (mounted at `/payments`: `/payments/admin`). */
  readonly path: string;
  /** The sellers a split payment is shared between, by their gateway sub-merchant id: the split dialogs offer a share for each. */
  readonly subMerchants?: readonly { readonly id: string; readonly name: string }[];
  /** Where the built page is; default the `dist/back-office` of the installed @payform/companion. */
  readonly dir?: string;
}

export interface BackOfficeOptions {
  readonly path: string;
  readonly subMerchants: readonly { readonly id: string; readonly name: string }[];
  readonly dir: string;
}

/**
 * The first segment of every path the companion serves (app.ts's route groups, operator-routes.ts's
 * /healthz, /readyz and /metrics), which the back office may not shadow: at /readyz it would answer
 * every readiness probe 200, at /metrics every Prometheus scrape with its page. /metrics is
 * reserved whether or not a metrics token serves it. back-office-options.test.ts compares this
 * list with the routes of a companion, so a route added there without it fails.
 */
export const COMPANION_PATHS: readonly string[] = ['/api', '/checkout', '/healthz', '/metrics', '/readyz', '/webhooks', '/widget'];

export const BackOfficeSettings = z.strictObject({
  path: z
    .string()
    // `/admin/` is the page at `/admin`, as basePath takes a trailing slash.
    .regex(/^(\/(?!\.{1,2}(\/|$))[A-Za-z0-9._~-]+)+\/?$/, { error: 'must be a path such as /admin' })
    .refine((path) => !COMPANION_PATHS.some((taken) => path === taken || path.startsWith(`${taken}/`)), { error: `must not be one of the companion's own paths (${COMPANION_PATHS.join(', ')})` })
    // Printed and linked as the page is: `/admin/` answers with a redirect to it.
    .transform((path) => path.replace(/\/$/, '')),
  subMerchants: z.array(z.strictObject({ id: z.string().min(1).max(64), name: z.string().trim().min(1).max(128) })).max(100).optional(),
  dir: z.string().min(1).optional(),
});

/**
 * PAYFORM_BACK_OFFICE_SELLERS, the bin's `subMerchants`: `id=name` pairs separated by commas
 * (`3f0c…=Kavarnia Roasters,9a1d…=Kosiv Ceramics`), each id the gateway's sub-merchant id. A
 * name may hold `=` but no comma. Each wrong pair is named by its place, so a long list is
 * mended in one go.
 */
export const SellersSetting = z.string().transform((list, ctx) => {
  const pairs = list.split(',').map((pair) => pair.trim()).filter(Boolean);
  const sellers: { id: string; name: string }[] = [];
  pairs.forEach((pair, i) => {
    const at = pair.indexOf('=');
    const id = at < 0 ? pair : pair.slice(0, at).trim();
    const name = at < 0 ? '' : pair.slice(at + 1).trim();
    const problem = sellerProblem(pair, id, name, sellers);
    if (problem) ctx.addIssue({ code: 'custom', message: `seller ${i + 1}${problem}` });
    else sellers.push({ id: id.toLowerCase(), name });
  });
  if (pairs.length === 0) ctx.addIssue({ code: 'custom', message: 'must be id=name pairs separated by commas' });
  if (pairs.length > 100) ctx.addIssue({ code: 'custom', message: 'must name at most 100 sellers' });
  return sellers;
});

/** A name holding another id=name pair: the pairs separated by something else than a comma (`;`, a space). */
const holdsAnotherPair = (name: string) =>
  name.replace(/\s*=\s*/g, '=').split(/[;\s]+/).some((part) => part.includes('=') && Uuid.safeParse(part.slice(0, part.indexOf('='))).success);

/** What is wrong with one pair, said after `seller <place>`; undefined when it is right. */
function sellerProblem(pair: string, id: string, name: string, before: readonly { id: string }[]): string | undefined {
  if (!pair.includes('=') || !name) return ` ("${pair}") must be id=name`;
  if (!Uuid.safeParse(id).success) return `'s id "${id}" must be a UUID, the gateway's sub-merchant id`;
  if (holdsAnotherPair(name)) return `'s name "${name}" holds another id=name pair: separate the pairs with commas`;
  if (name.length > 128) return `'s name must be at most 128 characters`;
  if (before.some((seller) => seller.id === id.toLowerCase())) return `'s id ${id} is named twice`;
  return undefined;
}

/**
 * The page as `npm run build -w @payform/companion` (prepack) leaves it in the installed package.
 * Looked up only when the back office is on, so a bundler that moves this module breaks nothing else.
 */
const defaultDir = () => join(dirname(createRequire(import.meta.url).resolve('@payform/companion/package.json')), 'dist', 'back-office');

export function resolveBackOffice(config: BackOfficeConfig): BackOfficeOptions {
  return { path: config.path.replace(/\/$/, ''), subMerchants: config.subMerchants ?? [], dir: config.dir ?? defaultDir() };
}
