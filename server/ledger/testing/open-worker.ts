// Another OS process opening SQLite ledger files, for the tests of what the companion's user
// meets when permissions stand in the way: root passes them all, so a suite run as root (as CI
// is) starts this without root's rights past them. Prints, as JSON, whether this process still
// passes permissions (it read a file of mode 000 of its own making) with its effective
// capabilities, then, for each path given, the refusal's message, or null when the ledger opened
// (it is closed again).
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../ledger.js';

/** Whether this process reads a file no one may read: if so, no permission stops it and the outcomes below say nothing. */
function passesPermissions(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'payform-open-worker-'));
  try {
    const closed = join(dir, 'closed');
    writeFileSync(closed, '');
    chmodSync(closed, 0o000);
    try {
      readFileSync(closed);
      return true;
    } catch {
      return false;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The CapEff line of /proc/self/status (Linux), to show in a failure. */
function effectiveCapabilities(): string | null {
  try {
    return /^CapEff:\s*(\S+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

const passes = passesPermissions();
const outcomes: Array<string | null> = [];
if (!passes) {
  for (const path of process.argv.slice(2)) {
    try {
      await (await openLedger(path)).close();
      outcomes.push(null);
    } catch (error) {
      outcomes.push(error instanceof Error ? error.message : String(error));
    }
  }
}
process.stdout.write(JSON.stringify({ passesPermissions: passes, effectiveCapabilities: effectiveCapabilities(), outcomes }));
