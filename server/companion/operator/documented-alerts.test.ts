// What docs/companion.md and docs/reliability.md tell an operator to alert on must be what
// /metrics exports, and the two documents must not give two versions of one rule: an operator
// copies one of them. They did differ (PayformWebhooksNotArriving counted cancelled payments in
// one, not in the other).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CompanionMetrics } from './metrics.js';

const doc = (name: string) => readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), 'utf8');

/** `alert: Name` → its `expr` (one line, or a `|` block), from the YAML blocks of a document. */
function alertRules(text: string): Map<string, string> {
  const rules = new Map<string, string>();
  for (const [, block = ''] of text.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const alert = /^\s*- alert: (\w+)/.exec(lines[i] ?? '');
      if (!alert) continue;
      const expr = /^(\s*)expr: (.*)$/.exec(lines[i + 1] ?? '');
      if (!expr) continue;
      const [, indent = '', first = ''] = expr;
      let value = first.replace(/\s+#.*$/, '');
      if (value === '|') {
        const body: string[] = [];
        for (let j = i + 2; j < lines.length && (lines[j] ?? '').startsWith(`${indent}  `); j++) body.push((lines[j] ?? '').trim());
        value = body.join(' ');
      }
      rules.set(alert[1] ?? '', value.replace(/\s+/g, ' ').trim());
    }
  }
  return rules;
}

/** Every series /metrics exports at start, name → label → values. */
async function exported(): Promise<Map<string, Map<string, Set<string>>>> {
  const metrics = new CompanionMetrics();
  const text = await metrics.registry.metrics();
  const names = new Map<string, Map<string, Set<string>>>();
  for (const [, name = ''] of text.matchAll(/^# TYPE (\w+) /gm)) names.set(name, new Map());
  for (const [, name = '', labels = ''] of text.matchAll(/^(\w+)\{([^}]*)\} /gm)) {
    const entry = names.get(name);
    if (!entry) continue;
    for (const [, label = '', value = ''] of labels.matchAll(/(\w+)="([^"]*)"/g)) {
      const values = entry.get(label) ?? new Set<string>();
      entry.set(label, values.add(value));
    }
  }
  return names;
}

describe('the documented alert rules', () => {
  const companion = alertRules(doc('companion.md'));
  const reliability = alertRules(doc('reliability.md'));

  it('are found in both documents', () => {
    expect(companion.size).toBeGreaterThanOrEqual(10);
    expect(reliability.size).toBeGreaterThanOrEqual(8);
  });

  it('are the same rules in both documents, each said alike', () => {
    // reliability.md lacked five of companion.md's (an operator's trial, 2026-12-02): whichever an operator copies, it pages alike.
    expect([...reliability.keys()].sort()).toEqual([...companion.keys()].sort());
    for (const [name, expr] of reliability) expect({ name, expr: companion.get(name) }).toEqual({ name, expr });
  });

  it('name only metrics /metrics exports, and label values it exports from start', async () => {
    const series = await exported();
    for (const [name, expr] of [...companion, ...reliability]) {
      for (const [, metric = '', selector] of expr.matchAll(/(payform_\w+)(?:\{([^}]*)\})?/g)) {
        const base = metric.replace(/_(bucket|count|sum)$/, '');
        expect(series.has(base) || series.has(metric), `${name}: ${metric}`).toBe(true);
        const labels = series.get(base) ?? series.get(metric)!;
        for (const [, label = '', op, value = ''] of (selector ?? '').matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)) {
          // The calls' status is the HTTP status or a word: no series before the first call; the
          // ledger's gauges are read from the database at a scrape (none without a ledger).
          if (base === 'payform_gateway_call_duration_seconds' || labels.size === 0) continue;
          const values = labels.get(label);
          expect(values, `${name}: ${metric} has no label ${label}`).toBeDefined();
          if (op === '=' || op === '=~') for (const one of value.split('|')) expect([...values!], `${name}: ${metric}{${label}}`).toContain(one);
        }
      }
    }
  });
});
