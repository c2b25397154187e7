// Another OS process opening SQLite ledger files, for the tests of what the companion's user
// meets when permissions stand in the way: root passes them all, so a suite run as root (as CI
// is) starts this without root's rights past them. Prints, for each path given, the refusal's
// message, or null when the ledger opened (it is closed again), as JSON.
import { openLedger } from '../ledger.js';

const outcomes: Array<string | null> = [];
for (const path of process.argv.slice(2)) {
  try {
    await (await openLedger(path)).close();
    outcomes.push(null);
  } catch (error) {
    outcomes.push(error instanceof Error ? error.message : String(error));
  }
}
process.stdout.write(JSON.stringify(outcomes));
