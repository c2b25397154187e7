/**
 * `next build` imports route modules to collect page data: a companion composed at import there
 * would open the ledger on the build machine (creating its SQLite file), start reconciliation and
 * call the gateway. Nothing legitimate composes one during a build, so it is refused, naming the
 * recipe that composes at the first request instead.
 */

/** What Next.js sets in process.env.NEXT_PHASE while `next build` runs (its PHASE_PRODUCTION_BUILD). */
const NEXT_BUILD_PHASE = 'phase-production-build';

export function refuseDuringBuild(call: 'composeCompanion' | 'startCompanion', env: NodeJS.ProcessEnv = process.env): void {
  if (env.NEXT_PHASE !== NEXT_BUILD_PHASE) return;
  throw new Error(
    `${call} was called during \`next build\` (NEXT_PHASE=${NEXT_BUILD_PHASE}), most likely at a module's import: it would open the ledger on the build machine, ` +
      'start reconciliation and call the gateway. Compose it at the first request and keep it on globalThis ' +
      '(`(globalThis.payform ??= composeCompanion(…))` inside the route handler): docs/companion.md, "Next.js"',
  );
}
