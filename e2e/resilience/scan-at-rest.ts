/**
 * `tsx e2e/resilience/scan-at-rest.ts <dir>`: after the whole Vitest run, every file the
 * resilience suites kept in PAYFORM_AT_REST_DIR — their SQLite ledgers with WAL and shared
 * memory, the companion logs written beside them — searched for the test card numbers and
 * CVVs. Fails on any finding, or when there is too little to scan for the check to mean
 * anything (the suites keep a dozen ledgers full of payments).
 */
import { existsSync, statSync } from 'node:fs';
import { filesUnder, scanFile } from './support/at-rest.js';

const MIN_LEDGERS = 5;
const dir = process.argv[2];
if (!dir || !existsSync(dir)) {
  console.error(`at rest: no folder${dir ? ` at ${dir}` : ''}; run the suites with PAYFORM_AT_REST_DIR set`);
  process.exit(1);
}
const files = filesUnder(dir);
const ledgers = files.filter((file) => file.endsWith('.db') && statSync(file).size > 0);
if (ledgers.length < MIN_LEDGERS) {
  console.error(`at rest: only ${ledgers.length} ledger file(s) in ${dir}; the suites did not keep their databases`);
  process.exit(1);
}
const findings = files.flatMap(scanFile);
if (findings.length > 0) {
  for (const finding of findings.slice(0, 20)) console.error(`at rest: ${finding.where} holds ${finding.what}`);
  console.error(`at rest: ${findings.length} finding(s)`);
  process.exit(1);
}
const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
console.log(`at rest: ${files.length} files (${ledgers.length} ledgers, ${(bytes / 1024).toFixed(0)} KiB) kept by the suites, no card number or CVV`);
