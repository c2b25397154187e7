// The documented rules, run by Prometheus's own rule engine (promtool test rules) over the series a
// companion exports through an incident: what pages, and what does not. PayformDatabaseUnreachable
// says a failover's blink is no page, yet its increase() over 2 minutes held a restart's second of
// refused calls for 2 minutes and its `for: 1m` was met: an operator's PostgreSQL restart
// (2026-12-02, 1 s, five refused calls over two instances) paged for a minute. Needs promtool
// (Debian's prometheus package), which .ci/ensure-tools installs wherever the suites run: not skipped.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const doc = (name: string) => readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), 'utf8');

/** The `- alert: name` rule of a document's YAML blocks, as written (its comments and `for` included). */
function documentedRule(text: string, name: string): string {
  for (const [, block = ''] of text.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const lines = block.split('\n');
    const start = lines.findIndex((line) => line.trim() === `- alert: ${name}` || line.trim().startsWith(`- alert: ${name} `));
    if (start < 0) continue;
    const indent = /^\s*/.exec(lines[start] ?? '')![0].length;
    const rule = [lines[start]!];
    for (const line of lines.slice(start + 1)) {
      const own = /^\s*/.exec(line)![0].length;
      if (line.trim() === '' || own <= indent) break;
      rule.push(line);
    }
    return rule.map((line) => line.slice(indent)).join('\n');
  }
  throw new Error(`${name} is in no YAML block`);
}

const dir = mkdtempSync(join(tmpdir(), 'payform-alert-timing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether `rule` is firing at each of `at` (minutes), with `series` scraped every `interval`. */
function firing(rule: string, interval: string, series: Record<string, string>, at: readonly number[]): boolean[] {
  const name = /- alert: (\w+)/.exec(rule)![1]!;
  writeFileSync(join(dir, 'rules.yml'), `groups:\n  - name: payform\n    rules:\n${rule.replace(/^/gm, '      ')}\n`);
  return at.map((minutes) => {
    const test = [
      'rule_files: [rules.yml]',
      'evaluation_interval: 15s',
      'tests:',
      `  - interval: ${interval}`,
      '    input_series:',
      ...Object.entries(series).map(([metric, values]) => `      - series: '${metric}'\n        values: '${values}'`),
      '    alert_rule_test:',
      `      - eval_time: ${minutes * 60}s`,
      `        alertname: ${name}`,
      '        exp_alerts: []',
    ].join('\n');
    writeFileSync(join(dir, 'test.yml'), `${test}\n`);
    // Exits 1 when the alert fires (exp_alerts: none).
    try {
      execFileSync('promtool', ['test', 'rules', join(dir, 'test.yml')], { stdio: 'pipe' });
      return false;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('promtool is not installed: .ci/ensure-tools installs it (apt-get install prometheus)', { cause: error });
      const { stdout = '', stderr = '' } = error as { stdout?: Buffer; stderr?: Buffer };
      const output = `${String(stdout)}${String(stderr)}`;
      if (!output.includes(name)) throw error;
      return true;
    }
  });
}

describe('the documented PayformDatabaseUnreachable, run by promtool', () => {
  for (const document of ['companion.md', 'reliability.md']) {
    const rule = documentedRule(doc(document), 'PayformDatabaseUnreachable');

    it(`${document}: does not page for a restart's second of refused calls`, () => {
      // Quiet for 5 minutes, then 2 and 3 calls refused in one scrape, then quiet again; up at every scrape.
      const blip = {
        'payform_ledger_errors_total{instance="a",kind="unavailable"}': '0x20 2x40',
        'payform_ledger_errors_total{instance="b",kind="unavailable"}': '0x20 3x40',
        'payform_ledger_up{instance="a"}': '1x60',
        'payform_ledger_up{instance="b"}': '1x60',
      };
      expect(firing(rule, '15s', blip, [5.5, 6, 6.25, 6.5, 7, 8])).toEqual([false, false, false, false, false, false]);
      // Prometheus's default scrape interval, a minute.
      const slow = { 'payform_ledger_errors_total{kind="unavailable"}': '0x5 5x10', payform_ledger_up: '1x15' };
      expect(firing(rule, '1m', slow, [6, 6.5, 7, 7.5, 8])).toEqual([false, false, false, false, false]);
    });

    it(`${document}: pages for a database away longer than a minute, and for one that comes and goes`, () => {
      // Away from 5:15 to 8:15, refusing five calls a scrape.
      const away = {
        'payform_ledger_errors_total{instance="a",kind="unavailable"}': '0x20 0+5x12 60x28',
        'payform_ledger_up{instance="a"}': '1x20 0x12 1x28',
      };
      expect(firing(rule, '15s', away, [5.5, 6.5, 7.5, 11])).toEqual([false, true, true, false]);
      const slow = { 'payform_ledger_errors_total{kind="unavailable"}': '0x5 0+5x3 15x10', payform_ledger_up: '1x5 0x3 1x10' };
      expect(firing(rule, '1m', slow, [5.5, 8, 12])).toEqual([false, true, false]);
      // Connections reset every few seconds from 5:15: calls refused at every scrape, though each scrape's own read works.
      const flapping = { 'payform_ledger_errors_total{kind="unavailable"}': '0x20 0+2x20 40x20', payform_ledger_up: '1x60' };
      expect(firing(rule, '15s', flapping, [6, 8, 9, 13])).toEqual([false, true, true, false]);
    });
  }
});
