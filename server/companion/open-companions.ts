/**
 * How many companions this process holds open on each ledger. A second one on the same ledger is
 * a ledger handle and a reconciler more, never closed when it comes from composing per request
 * or at every `next dev` reload: said once per process, not refused (tests and some setups run
 * two on purpose). Kept on globalThis, so that two copies of this module (a bundler's server
 * chunks, a reloaded module graph) count together. Touched at compose and close only.
 */
import type { Logger } from './log/logger.js';

interface OpenCompanions {
  /** Open companions per ledger, keyed by where it is (shown as in the log: no password). */
  readonly open: Map<string, number>;
  warned: boolean;
}

const KEY = Symbol.for('payform.companion.openCompanions');

function openCompanions(): OpenCompanions {
  const kept = globalThis as typeof globalThis & { [KEY]?: OpenCompanions };
  return (kept[KEY] ??= { open: new Map(), warned: false });
}

/**
 * Counts one more companion open on `ledger` (its full SQLite path or PostgreSQL URL without
 * password; `:memory:` is a ledger of its own each time, never counted) and warns, the first
 * time, when others were open on it already. Gives back what uncounts it, once, at close.
 */
export function countOpenCompanion(ledger: string, logger: Logger): () => void {
  if (ledger === ':memory:') return () => undefined;
  const state = openCompanions();
  const open = (state.open.get(ledger) ?? 0) + 1;
  state.open.set(ledger, open);
  if (open > 1 && !state.warned) {
    state.warned = true;
    logger.warn(
      `${open} companions are open in this process on the ledger at ${ledger}: each composeCompanion opens one more ledger handle and reconciler, ` +
        'which stay until its close(). Compose it once and keep it (on globalThis under a dev server that evaluates modules again at every reload: Next.js, Vite\'s in React Router, SvelteKit, Nuxt, Astro; never per request): docs/companion.md, "Mount it in your server"',
    );
  }
  let counted = true;
  return () => {
    if (!counted) return;
    counted = false;
    const left = (state.open.get(ledger) ?? 1) - 1;
    if (left > 0) state.open.set(ledger, left);
    else state.open.delete(ledger);
  };
}
