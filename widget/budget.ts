/**
 * The widget's budgets (design.md): bundle ≤ 14 KB min+gzip with Lit, card formatting + validation
 * ≤ 20 µs per keystroke in Node. `npm run bench:widget` prints them; `npm run bench` can import
 * `measureWidget()`. Needs `npm run build:widget` first for the sizes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { detectBrand, digitsOf, checkCvv, checkExpiry, formatCvv, formatExpiry, formatNumber, type Edit, type Keystroke, checkNumber } from '@payform/card/fields';

// 14 KB read strictly (14,000 bytes); as 14 KiB (14,336) it leaves more room.
export const BUNDLE_BUDGET_BYTES = 14_000;
export const KEYSTROKE_BUDGET_MICROSECONDS = 20;

const DIST = fileURLToPath(new URL('./dist/', import.meta.url));

/** gzip at its default level, as `gzip -c file | wc -c` counts. */
const gzipped = (path: string): number => gzipSync(readFileSync(path)).length;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));

/** One customer's typing of a whole card, keystroke by keystroke, as the input events see it. */
function keystrokes(): { field: 'number' | 'exp' | 'cvv'; keystroke: Keystroke }[] {
  const typing = (field: 'number' | 'exp' | 'cvv', text: string, format: (k: Keystroke) => Edit) => {
    const out: { field: typeof field; keystroke: Keystroke }[] = [];
    let value = '';
    for (const char of text) {
      const keystroke = { value: value + char, caret: value.length + 1, inputType: 'insertText', before: value };
      out.push({ field, keystroke });
      value = format(keystroke).value;
    }
    return out;
  };
  return [
    ...typing('number', '4242424242424242', formatNumber),
    ...typing('number', '378282246310005', formatNumber),
    ...typing('exp', '1230', formatExpiry),
    ...typing('cvv', '123', (k) => formatCvv(k)),
  ];
}

/** What the form does on each keystroke: re-format, find the brand, check the field. */
function handle({ field, keystroke }: ReturnType<typeof keystrokes>[number]): boolean {
  if (field === 'number') {
    const { value } = formatNumber(keystroke);
    const digits = digitsOf(value);
    return detectBrand(digits) !== undefined && checkNumber(digits).valid;
  }
  if (field === 'exp') return checkExpiry(formatExpiry(keystroke).value).valid;
  return checkCvv(formatCvv(keystroke).value).valid;
}

export function measureKeystroke(rounds = 20_000): number {
  const strokes = keystrokes();
  let sink = 0;
  for (let i = 0; i < 2_000; i++) for (const stroke of strokes) sink += +handle(stroke); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const stroke of strokes) sink += +handle(stroke);
  const elapsed = Number(process.hrtime.bigint() - start) / 1000;
  if (sink < 0) throw new Error('unreachable');
  return elapsed / (rounds * strokes.length);
}

export interface WidgetFigures {
  /** widget/dist/pay-form.js, minified, gzip: Lit included. */
  bundleGzipBytes: number;
  /** The on-demand chunks (other languages, test mode), each gzip. */
  chunksGzipBytes: Record<string, number>;
  /** widget/dist/lib: the package's unbundled modules, without Lit, gzip each and summed. */
  unbundledGzipBytes: number;
  keystrokeMicroseconds: number;
}

export function measureWidget(): WidgetFigures {
  const chunks = join(DIST, 'chunks');
  return {
    bundleGzipBytes: gzipped(join(DIST, 'pay-form.js')),
    chunksGzipBytes: Object.fromEntries(readdirSync(chunks).map((name) => [name, gzipped(join(chunks, name))])),
    unbundledGzipBytes: files(join(DIST, 'lib')).filter((path) => path.endsWith('.js')).reduce((sum, path) => sum + gzipped(path), 0),
    keystrokeMicroseconds: measureKeystroke(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = measureWidget();
  const rows: [string, string, string][] = [
    ['widget bundle (pay-form.js, min+gzip, Lit included)', `${figures.bundleGzipBytes} B`, `≤ ${BUNDLE_BUDGET_BYTES} B`],
    ...Object.entries(figures.chunksGzipBytes).map(([name, bytes]): [string, string, string] => [`  on demand: chunks/${name}`, `${bytes} B`, '']),
    ['widget unbundled modules (widget/dist/lib, gzip, without Lit)', `${figures.unbundledGzipBytes} B`, ''],
    ['card format + validate per keystroke (Node)', `${figures.keystrokeMicroseconds.toFixed(2)} µs`, `≤ ${KEYSTROKE_BUDGET_MICROSECONDS} µs`],
  ];
  for (const [what, value, budget] of rows) console.log(`${what.padEnd(64)} ${value.padStart(10)}  ${budget}`);
  const over = figures.bundleGzipBytes > BUNDLE_BUDGET_BYTES || figures.keystrokeMicroseconds > KEYSTROKE_BUDGET_MICROSECONDS;
  process.exitCode = over ? 1 : 0;
}
