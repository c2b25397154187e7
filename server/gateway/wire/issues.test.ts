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
