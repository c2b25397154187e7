// Field issues name what is wrong without quoting what was sent — not even through a key.
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { parseWire } from './issues.js';

const Card = z.strictObject({ card: z.strictObject({ number: z.string(), cvv: z.string() }).partial() });

const issuesOf = (schema: z.ZodType, input: unknown) => {
  const parsed = parseWire(schema, input);
  if (parsed.success) throw new Error('expected a refusal');
  return parsed.issues;
};

describe('unknown fields', () => {
  it('are named when the name is a plain identifier', () => {
    expect(issuesOf(Card, { card: { numbr: '4242' }, extra_2: 1 })).toEqual([
      { field: 'card.numbr', reason: 'is not allowed' },
      { field: 'extra_2', reason: 'is not allowed' },
    ]);
  });

  it('are reported on their parent, unnamed, when the name could carry card data', () => {
    const issues = issuesOf(Card, { card: { '4242 4242 4242 4242 / 12/30 / 123': true, cvv123: 'x', 'exp-month': 1 } });
    expect(issues).toEqual([
      { field: 'card', reason: 'has a field that is not allowed' },
      { field: 'card', reason: 'has a field that is not allowed' },
      { field: 'card', reason: 'has a field that is not allowed' },
    ]);
    expect(JSON.stringify(issues)).not.toMatch(/\d/);
  });

  it('never put such a name into the path of another issue', () => {
    const Notes = z.record(z.string(), z.string());
    expect(issuesOf(Notes, { '4242424242424242': 5, colour: 6 })).toEqual([
      { field: '*', reason: 'must be a string' },
      { field: 'colour', reason: 'must be a string' },
    ]);
  });
});

describe('a number past its bounds', () => {
  it('is named once, by its schema’s bound, not also by the safe-integer bound int() adds', () => {
    const Latency = z.strictObject({ latency_ms: z.number().int().min(0).max(60_000), other: z.number().int().min(5).max(9) });
    expect(issuesOf(Latency, { latency_ms: 1e20, other: -1e20 })).toEqual([
      { field: 'latency_ms', reason: 'must be at most 60000' },
      { field: 'other', reason: 'must be at least 5' },
    ]);
    expect(issuesOf(Latency, { latency_ms: 60_001, other: 10 })).toEqual([
      { field: 'latency_ms', reason: 'must be at most 60000' },
      { field: 'other', reason: 'must be at most 9' },
    ]);
  });
});
