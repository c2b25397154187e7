#!/usr/bin/env node
/**
 * `payform-companion` (in the repository `npm run companion`): the companion on its own,
 * configured by the environment (README's table, docs/companion.md); Ctrl-C stops it.
 */
import { startCompanion } from './start.js';
import { readCompanionConfig } from './settings.js';

let companion;
try {
  companion = await startCompanion(readCompanionConfig(process.env));
} catch (error) {
  // A wrong setting or a missing database driver: the message says what to do, a stack would bury it.
  console.error(`payform companion could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
console.log(`payform companion listening on ${companion.url} — ${companion.listening}`);
const stop = () => {
  void companion.close().then(() => process.exit(0));
};
process.once('SIGINT', stop).once('SIGTERM', stop);
