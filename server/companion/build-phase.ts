/**
 * A framework's build can run the server's code: `next build` imports route modules to collect
 * page data, and Astro's, Nuxt's and React Router's builds render the pages they prerender (a
 * checkout page marked `prerender`, `output: 'static'`, `nuxi generate`, React Router's
 * `prerender` list, whose loaders run). A companion composed there would open
 * the ledger on the build machine (creating its SQLite file), start reconciliation, call the
 * gateway, and bake a session opened at build time into a page every customer gets. Nothing
 * legitimate composes one during a build, so it is refused, naming the cause and the fix.
 */

/** What Next.js sets in process.env.NEXT_PHASE while `next build` runs (its PHASE_PRODUCTION_BUILD). */
const NEXT_BUILD_PHASE = 'phase-production-build';

/**
 * The command lines of builds that render pages in this process: `astro build`, `nuxi
 * build`/`generate`, `react-router build`, `remix vite:build` — by the bin's link or its file.
 */
const RENDERING_BUILD = /(?:^|[\\/])(astro|nuxi|nuxt|react-router|remix)(?:\.[cm]?js)?$|[\\/]@(react-router|remix-run)[\\/]dev[\\/](?:dist[\\/])?(?:bin|cli)\.[cm]?js$/;
const BUILD_COMMANDS = new Set(['build', 'generate', 'vite:build']);

export function refuseDuringBuild(call: 'composeCompanion' | 'startCompanion', env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.argv): void {
  if (env.NEXT_PHASE === NEXT_BUILD_PHASE) {
    throw new Error(
      `${call} was called during \`next build\` (NEXT_PHASE=${NEXT_BUILD_PHASE}): it would open the ledger on the build machine, ` +
        'start reconciliation and call the gateway. Either a module composes it as it is imported — compose it at the first request ' +
        'and keep it on globalThis (`kept.payform ??= composeCompanion(…)` inside the route handler) — or a page that opens a checkout ' +
        'session is prerendered at build: make it render on each request (`await connection()` from next/server before it, or ' +
        "`export const dynamic = 'force-dynamic'` without cacheComponents): docs/companion.md, \"Next.js\"",
    );
  }
  const bin = RENDERING_BUILD.exec(argv[1] ?? '');
  const tool = bin && (bin[1] ?? (bin[2] === 'remix-run' ? 'remix' : bin[2]));
  const command = subcommand(argv.slice(2));
  if (!tool || !command || !BUILD_COMMANDS.has(command)) return;
  throw new Error(
    `${call} was called during \`${tool} ${command}\`, which renders the pages it prerenders: it would open the ledger on the build machine, ` +
      'start reconciliation, call the gateway, and put a session opened now into a page every customer gets. ' +
      "Render the checkout page on demand (Astro: export const prerender = false, output: 'server'; Nuxt: no prerender or cache route rule for it; " +
      'React Router: leave it out of prerender in react-router.config), ' +
      'and compose the companion at the first request, kept on globalThis: docs/companion.md',
  );
}

/**
 * The framework's subcommand: the first argument that is neither an option nor what may be an
 * option's value (`astro --root site build` builds: its parser gives --root the next argument);
 * else the first that is not an option (`astro --verbose build`). `astro preview --outDir build`
 * serves.
 */
function subcommand(args: readonly string[]): string | undefined {
  const takesValue = (arg: string | undefined) => arg !== undefined && arg.startsWith('-') && !arg.includes('=');
  const positional = args.flatMap((arg, index) => (arg.startsWith('-') ? [] : [index]));
  const sure = positional.find((index) => !takesValue(args[index - 1]));
  return args[sure ?? positional[0] ?? args.length];
}
