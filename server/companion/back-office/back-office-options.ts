/**
 * The back office's one option, `backOffice` in createCompanion's config (PAYFORM_BACK_OFFICE for
 * the `payform-companion` bin): off unless given, checked at start with the rest of the config.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as z from 'zod';

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
    .refine((path) => !COMPANION_PATHS.some((taken) => path === taken || path.startsWith(`${taken}/`)), { error: `must not be one of the companion's own paths (${COMPANION_PATHS.join(', ')})` }),
  subMerchants: z.array(z.strictObject({ id: z.string().min(1).max(64), name: z.string().trim().min(1).max(128) })).max(100).optional(),
  dir: z.string().min(1).optional(),
});

/**
 * The page as `npm run build -w @payform/companion` (prepack) leaves it in the installed package.
 * Looked up only when the back office is on, so a bundler that moves this module breaks nothing else.
 */
const defaultDir = () => join(dirname(createRequire(import.meta.url).resolve('@payform/companion/package.json')), 'dist', 'back-office');

export function resolveBackOffice(config: BackOfficeConfig): BackOfficeOptions {
  return { path: config.path.replace(/\/$/, ''), subMerchants: config.subMerchants ?? [], dir: config.dir ?? defaultDir() };
}
