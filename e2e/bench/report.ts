/**
 * The benchmark report: every figure with its budget beside it and the machine's load average
 * when it was taken, printed as a table and written to bench/results.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';

export interface Budget {
  /** `max`: the figure must stay at or below the limit; `min`: at or above. */
  readonly kind: 'max' | 'min';
  readonly limit: number;
  /** How the limit reads in design.md, e.g. "14 KB (14,000 B)". */
  readonly text: string;
}

export interface Figure {
  readonly section: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly budget?: Budget;
  /** Extra facts of the same measurement (samples, percentiles, counts). */
  readonly detail?: string;
  /** 1-minute load average when the measurement ended. */
  readonly load: number;
}

export function withinBudget(figure: Figure): boolean | undefined {
  if (!figure.budget) return undefined;
  return figure.budget.kind === 'max' ? figure.value <= figure.budget.limit : figure.value >= figure.budget.limit;
}

export function currentLoad(): number {
  return loadavg()[0]!;
}

function formatValue(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

export function printTable(figures: readonly Figure[]): void {
  let section = '';
  for (const figure of figures) {
    if (figure.section !== section) {
      section = figure.section;
      console.log(`\n${section}`);
    }
    const verdict = withinBudget(figure);
    const budget = figure.budget ? `${figure.budget.kind === 'max' ? '≤' : '≥'} ${figure.budget.text}` : '—';
    const mark = verdict === undefined ? '' : verdict ? 'ok' : 'OVER BUDGET';
    console.log(
      `  ${figure.name.padEnd(58)} ${formatValue(figure.value, figure.unit).padStart(14)}  budget ${budget.padEnd(22)} ${mark.padEnd(11)} load ${figure.load.toFixed(2)}`,
    );
    if (figure.detail) console.log(`  ${''.padEnd(58)} ${figure.detail}`);
  }
}

export function writeResults(path: string, figures: readonly Figure[], failures: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const results = {
    taken_at: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? 'unknown', node: process.version, load_average_at_end: loadavg() },
    figures: figures.map((figure) => ({ ...figure, within_budget: withinBudget(figure) })),
    failures,
  };
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}
