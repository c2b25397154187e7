/**
 * Card data at rest: every file the stack wrote (SQLite database, its WAL and shared memory,
 * logs) and every row of a PostgreSQL schema, searched for the test card numbers — however their
 * digits are written and separated — and the tests' CVVs in the forms a stored JSON value would take. The
 * needles are the log-capture check's own (server/companion/test/log-capture.ts).
 *
 * Where the suites keep their files: PAYFORM_AT_REST_DIR when set (`.ci/test` sets it and
 * scans the folder once the whole Vitest run is over), else a temporary folder per stack.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanLogCapture } from '../../../server/companion/test/log-capture.js';
import type { TableDump } from './stored-state.js';

export interface AtRestFinding {
  readonly where: string;
  readonly what: string;
}

/** Whether the suites' files are kept for the scan after the run. */
export const keptForScan = (): string | undefined => process.env.PAYFORM_AT_REST_DIR?.trim() || undefined;

/** A fresh folder for one stack's files: under PAYFORM_AT_REST_DIR when set. */
export function stackFolder(): string {
  return mkdtempSync(join(keptForScan() ?? tmpdir(), 'payform-resilience-'));
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Findings in one file's bytes, read as UTF-8 so a no-break space or a full-width digit is one
 * character (the bytes that are not UTF-8 become U+FFFD, never swallowing an ASCII digit).
 */
export function scanFile(path: string): AtRestFinding[] {
  return scanLogCapture(readFileSync(path).toString('utf8')).map((finding) => ({ where: path, what: finding.what }));
}

export function scanDump(name: string, dump: TableDump): AtRestFinding[] {
  return Object.entries(dump).flatMap(([table, rows]) =>
    scanLogCapture(rows.map((row) => (typeof row === 'string' ? row : JSON.stringify(row))).join('\n')).map((finding) => ({ where: `${name}.${table}`, what: finding.what })),
  );
}
