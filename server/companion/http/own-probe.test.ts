// The start's own probes are told apart by the instance they reach, which behind a balancer is
// another process: their token is one every instance given the same API secret computes alike.
import { describe, expect, it } from 'vitest';
import { ownProbeCheck, ownProbeToken } from './own-probe.js';

describe('ownProbeToken', () => {
  it('is the same in every process given the same gateway API secret, another for another, and never the secret', () => {
    expect(ownProbeToken('api-secret-of-the-project')).toBe(ownProbeToken('api-secret-of-the-project'));
    expect(ownProbeToken('api-secret-of-the-project')).not.toBe(ownProbeToken('api-secret-rotated'));
    expect(ownProbeToken('api-secret-of-the-project')).not.toContain('api-secret');
    expect(ownProbeToken('api-secret-of-the-project')).toMatch(/^[\w-]{43}$/);
  });

  it('is told by an instance given that secret or, while a rotation goes round, the one before it', () => {
    const isOwn = ownProbeCheck(['api-secret-rotated', 'api-secret-of-the-project']);
    expect(isOwn(ownProbeToken('api-secret-rotated'))).toBe(true);
    expect(isOwn(ownProbeToken('api-secret-of-the-project'))).toBe(true);
    expect(isOwn(ownProbeToken('another-project'))).toBe(false);
    expect(isOwn(undefined)).toBe(false);
    expect(isOwn('')).toBe(false);
  });
});
