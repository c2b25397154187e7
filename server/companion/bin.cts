#!/usr/bin/env node
/**
 * `payform-companion`, as installed: sizes libuv's thread pool, then runs main.js.
 *
 * The pool runs a SQLite ledger's syncs on a slow disk, and shares its four threads with DNS
 * look-ups (the gateway's host, the database's): four look-ups hung on a dead resolver would
 * hold every commit's answer behind them. libuv sizes the pool at its first use, and loading an
 * ES module already uses it, so only a CommonJS file run first can still choose. An operator's
 * own UV_THREADPOOL_SIZE is kept.
 */
process.env.UV_THREADPOOL_SIZE ??= '16';
import('./main.js').catch((error: unknown) => {
  // Whatever Node's --unhandled-rejections says, a command that could not load fails.
  console.error(error);
  process.exit(1);
});
