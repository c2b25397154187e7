/**
 * The companion on its own against a real gateway (`npm run companion`): settings from the
 * environment, Ctrl-C stops it. `npm start` runs it together with the sandbox and the demo.
 */
import { startCompanion } from './start.js';
import { readCompanionConfig } from './settings.js';

const companion = await startCompanion(readCompanionConfig());
console.log(`payform companion listening on ${companion.url} — ${companion.listening}`);
const stop = () => {
  void companion.close().then(() => process.exit(0));
};
process.once('SIGINT', stop).once('SIGTERM', stop);
