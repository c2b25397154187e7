/**
 * The command line of `payform-companion` (main.ts). The companion is configured by its
 * environment (settings.ts); the command line only asks for help or the version.
 */
import { createRequire } from 'node:module';

export const COMPANION_DOCS = 'https://github.com/payform/payform/tree/main/server/companion#readme';

export const USAGE = `Usage: payform-companion [--help | --version]

The merchant's payment server for <pay-form>: checkout sessions, payments, 3-D Secure,
signed webhooks into a ledger, reconciliation and the merchant API. It is configured by
environment variables; the main ones:

  PORT, PAYFORM_HOST       where to listen (default 3000 on 127.0.0.1 in development)
  PAYFORM_PUBLIC_URL       how the gateway and browsers reach it (default http://localhost:$PORT)
  PAYFORM_GATEWAY_BASE_URL the gateway, or a sandbox started with payform-sandbox
  PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_API_SECRET,
  PAYFORM_GATEWAY_ENDPOINTS_KEY
                           the project's credentials (default the sandbox's test project)
  PAYFORM_GATEWAY_WIDGET_KEY
                           <pay-form> tokenizes cards in the browser (default: relayed here)
  PAYFORM_GATEWAY_TIMEOUT_MS
                           a gateway call's deadline, then its outcome is read (default 30000)
  PAYFORM_DATABASE_URL     postgres://… for PostgreSQL, else an SQLite file (./data/payform.db)
  PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS
                           PostgreSQL: a statement's deadline, then 503 (default 5000; 0: none)
  PAYFORM_ADMIN_TOKEN      bearer token of the merchant API (generated and printed if unset)
  PAYFORM_ALLOWED_ORIGINS  origins of the pages that embed <pay-form> (default the public URL's)
  PAYFORM_BACK_OFFICE      serve the back office at this path, e.g. /admin (default off)
  PAYFORM_BACK_OFFICE_SELLERS
                           its split payments' sellers: id=name,… by sub-merchant id
  PAYFORM_NOTIFY_URL, PAYFORM_NOTIFY_SECRET
                           POST every payment change to your backend, signed (default off)

Every variable, its default and the recipes for Hono, Express and fetch servers:
${COMPANION_DOCS}

Options:
  -h, --help      print this help
  -v, --version   print the version
`;

export type CommandLine =
  | { readonly kind: 'run' | 'help' | 'version' }
  | { readonly kind: 'wrong'; readonly problem: string };

export function readCommandLine(args: readonly string[]): CommandLine {
  if (args.length === 0) return { kind: 'run' };
  const [first] = args;
  if (args.length === 1 && (first === '--help' || first === '-h')) return { kind: 'help' };
  if (args.length === 1 && (first === '--version' || first === '-v')) return { kind: 'version' };
  return { kind: 'wrong', problem: `unexpected ${args.length === 1 ? 'argument' : 'arguments'} ${args.map((arg) => `"${arg}"`).join(' ')}: the companion is configured by environment variables` };
}

/** This package's version, from its own package.json: the package resolves its own name, from source or dist. */
export function packageVersion(): string {
  return (createRequire(import.meta.url)('@payform/companion/package.json') as { version: string }).version;
}
