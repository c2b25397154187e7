import { describe, expect, it } from 'vitest';
import { nearestName } from './near-names.js';

const KNOWN = ['PAYFORM_SESSION_TTL_SECONDS', 'PAYFORM_ADMIN_TOKEN', 'PAYFORM_HOST'];

describe('nearestName', () => {
  it('names what is spelt with other underscores or case, or at most two edits away', () => {
    expect(nearestName('PAYFORM_ADMINTOKEN', KNOWN)).toBe('PAYFORM_ADMIN_TOKEN');
    expect(nearestName('payform_host', KNOWN)).toBe('PAYFORM_HOST');
    expect(nearestName('PAYFORM_HOTS', KNOWN)).toBe('PAYFORM_HOST');
    expect(nearestName('PAYFORM_LOG_LEVEL', KNOWN)).toBeUndefined();
  });

  it('names a variable cut short at an underscore only when asked to, and a near one before it', () => {
    expect(nearestName('PAYFORM_SESSION_TTL', KNOWN)).toBeUndefined();
    expect(nearestName('PAYFORM_SESSION_TTL', KNOWN, { cutShort: true })).toBe('PAYFORM_SESSION_TTL_SECONDS');
    // Not cut at an underscore: PAYFORM_SESSION_T is no word of it.
    expect(nearestName('PAYFORM_SESSION_T', KNOWN, { cutShort: true })).toBeUndefined();
    expect(nearestName('PAYFORM_HOS', [...KNOWN, 'PAYFORM_HOS_X'], { cutShort: true })).toBe('PAYFORM_HOST');
  });
});
