#!/usr/bin/env node
/**
 * `payform-companion` (in the repository `npm run companion`): the companion on its own,
 * configured by the environment (README's table, docs/companion.md); Ctrl-C stops it.
 */
import { startCompanion } from './start.js';
import { readCompanionConfig } from './settings.js';

let companion;
let settings;
try {
  settings = readCompanionConfig();
  companion = await startCompanion(settings);
} catch (error) {
  // A wrong setting or a missing database driver: the message says what to do, a stack would bury it.
  console.error(`payform companion could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
console.log(`payform companion listening on ${companion.url} — ${companion.listening}`);
if (settings.backOffice) console.log(`payform companion: back office at ${companion.app.companion.services.options.publicUrl}${settings.backOffice.path} (sign in with ADMIN_TOKEN)`);
const stop = () => {
  void companion.close().then(() => process.exit(0));
};
process.once('SIGINT', stop).once('SIGTERM', stop);
