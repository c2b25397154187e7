/**
 * `tsx server/companion/test/scan-log-capture.ts <file>`: fails when the companion's log
 * capture of the test run holds a test card number or CVV — or when there is no capture worth
 * the name (the suites log thousands of lines, payments included).
 */
import { existsSync, readFileSync } from 'node:fs';
import { scanLogCapture } from './log-capture.js';

const MIN_LINES = 500;
const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.error(`log capture: no file${file ? ` at ${file}` : ''}; run the suites with PAYFORM_LOG_FILE set`);
  process.exit(1);
}
const text = readFileSync(file, 'utf8');
const lines = text.split('\n').filter(Boolean);
const payLines = lines.filter((line) => line.includes('/api/checkout/sessions/:id/pay')).length;
if (lines.length < MIN_LINES || payLines === 0) {
  console.error(`log capture: only ${lines.length} lines (${payLines} about payments) in ${file}; the capture is not working`);
  process.exit(1);
}
const findings = scanLogCapture(text);
if (findings.length > 0) {
  for (const finding of findings.slice(0, 20)) console.error(`log capture: line ${finding.line} holds ${finding.what}`);
  console.error(`log capture: ${findings.length} finding(s) in ${file}`);
  process.exit(1);
}
console.log(`log capture: ${lines.length} companion log lines (${payLines} pay requests), no card number or CVV`);
