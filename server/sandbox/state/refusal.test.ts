// A refusal's error body, masked issue by issue: a CVV one issue names and quotes is masked in
// that issue, in the message and the args alike, and the other issues' figures are kept.
import { describe, expect, it } from 'vitest';
import { Refusal } from './refusal.js';

describe('Refusal.invalid', () => {
  it('masks a CVV in the issue that names it only, in the message as in the args', () => {
    const { body } = Refusal.invalid([
      { field: 'card_cvv', reason: 'value 737 is not valid' },
      { field: 'description', reason: 'must be at most 2048 characters' },
      { field: 'order_id', reason: 'holds 4242 4242 4242 4242' },
    ]);
    expect(body.args).toEqual([
      { field_name: 'card_cvv', violation: 'value [cvv] is not valid' },
      { field_name: 'description', violation: 'must be at most 2048 characters' },
      { field_name: 'order_id', violation: 'holds [card number]' },
    ]);
    const args = body.args as { field_name: string; violation: string }[];
    expect(body.message).toBe(`Invalid request: ${args.map(({ field_name, violation }) => `${field_name}: ${violation}`).join('; ')}`);
    expect(JSON.stringify(body)).not.toMatch(/737|4242 4242 4242 4242/);
  });
});
