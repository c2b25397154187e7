// The tokenizer's tokens: single use, expiry by the sandbox clock, and letting go of old ones so
// a sandbox under load holds a bounded number — without an old token ever paying or reading as
// one never issued.
import { describe, expect, it } from 'vitest';
import { readCard } from './cards.js';
import { FORGET_AFTER_EXPIRY_MS, WidgetTokens } from './widget-tokens.js';

const POS = 'pos-a';
const OTHER_POS = 'pos-b';
const LIFESPAN_MS = 15 * 60_000;
const card = readCard('4242424242424242', 12, 2030);
const at = (ms: number) => new Date(Date.UTC(2026, 2, 2, 10) + ms);
const issueAt = (tokens: WidgetTokens, ms: number, posId = POS) => tokens.issue(posId, card, at(ms + LIFESPAN_MS), at(ms));

describe('WidgetTokens', () => {
  it('pays a token once, for its own project only', () => {
    const tokens = new WidgetTokens();
    const token = issueAt(tokens, 0);
    expect(token).toMatch(/^[\da-f]{48}$/);
    expect(tokens.redeem(OTHER_POS, token, at(1))).toBeUndefined();
    expect(tokens.redeem(POS, token, at(1))).toEqual({ kind: 'card', card });
    expect(tokens.redeem(POS, token, at(2))).toEqual({ kind: 'spent' });
    expect(tokens.redeem(OTHER_POS, token, at(2))).toBeUndefined();
  });

  it('refuses a token past its expiry, and keeps a spent one reading spent past it for a while', () => {
    const tokens = new WidgetTokens();
    const spent = issueAt(tokens, 0);
    const late = issueAt(tokens, 0);
    expect(tokens.redeem(POS, spent, at(LIFESPAN_MS))).toMatchObject({ kind: 'card' });
    expect(tokens.redeem(POS, late, at(LIFESPAN_MS + 1))).toEqual({ kind: 'expired' });
    expect(tokens.redeem(POS, spent, at(LIFESPAN_MS + FORGET_AFTER_EXPIRY_MS - 1))).toEqual({ kind: 'spent' });
  });

  it('lets go of tokens past expiry and margin; one let go reads expired, never pays, and stays foreign to other projects', () => {
    const tokens = new WidgetTokens();
    const unused = issueAt(tokens, 0);
    const spent = issueAt(tokens, 0);
    expect(tokens.redeem(POS, spent, at(1))).toMatchObject({ kind: 'card' });
    const forgetAt = LIFESPAN_MS + FORGET_AFTER_EXPIRY_MS;
    issueAt(tokens, forgetAt - 1);
    expect(tokens.size).toBe(3);
    const fresh = issueAt(tokens, forgetAt);
    expect(tokens.size).toBe(2);
    for (const token of [unused, spent]) {
      expect(tokens.redeem(POS, token, at(forgetAt))).toEqual({ kind: 'expired' });
      expect(tokens.redeem(OTHER_POS, token, at(forgetAt))).toBeUndefined();
    }
    expect(tokens.redeem(POS, fresh, at(forgetAt))).toMatchObject({ kind: 'card' });
  });

  it('lets go on redeem too, and tells a token it never issued from one it let go', () => {
    const tokens = new WidgetTokens();
    const old = issueAt(tokens, 0);
    const forgetAt = LIFESPAN_MS + FORGET_AFTER_EXPIRY_MS;
    expect(tokens.redeem(POS, 'ab'.repeat(24), at(forgetAt))).toBeUndefined();
    expect(tokens.size).toBe(0);
    // The same random half with another tag is not one it issued.
    expect(tokens.redeem(POS, old.slice(0, 32) + '0'.repeat(16), at(forgetAt))).toBeUndefined();
    expect(tokens.redeem(POS, old.toUpperCase(), at(forgetAt))).toBeUndefined();
    expect(tokens.redeem(POS, old, at(forgetAt))).toEqual({ kind: 'expired' });
  });

  it('holds a bounded number under a steady load', () => {
    const tokens = new WidgetTokens();
    const stepMs = 1_000;
    const window = (LIFESPAN_MS + FORGET_AFTER_EXPIRY_MS) / stepMs;
    let largest = 0;
    for (let i = 0; i < 10_000; i += 1) {
      const token = issueAt(tokens, i * stepMs);
      if (i % 2 === 0) tokens.redeem(POS, token, at(i * stepMs));
      largest = Math.max(largest, tokens.size);
    }
    expect(largest).toBe(window);
  });

  it('lets a token issued while the clock stood earlier go once the older ones ahead of it have', () => {
    const tokens = new WidgetTokens();
    const forgetAfter = LIFESPAN_MS + FORGET_AFTER_EXPIRY_MS;
    issueAt(tokens, 60_000);
    const earlier = issueAt(tokens, 0);
    issueAt(tokens, forgetAfter);
    expect(tokens.size).toBe(3);
    expect(tokens.redeem(POS, earlier, at(forgetAfter))).toEqual({ kind: 'expired' });
    issueAt(tokens, forgetAfter + 60_000);
    expect(tokens.size).toBe(2);
  });

  it('forgets every token on clear: one from before reads as never issued', () => {
    const tokens = new WidgetTokens();
    const token = issueAt(tokens, 0);
    tokens.clear();
    expect(tokens.size).toBe(0);
    expect(tokens.redeem(POS, token, at(1))).toBeUndefined();
    expect(tokens.redeem(POS, issueAt(tokens, 0), at(1))).toMatchObject({ kind: 'card' });
  });
});
