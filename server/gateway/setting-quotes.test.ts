import { describe, expect, it } from 'vitest';
import { isQuotedSetting, quotedSettingProblem } from './setting-quotes.js';

describe('a setting kept in quotes', () => {
  it('is a value in matching quotes, blanks around them aside', () => {
    for (const value of ['"postgres://db/payform"', "'token'", ' "x" ', '""']) expect(isQuotedSetting(value), value).toBe(true);
    for (const value of ['token', '"half', 'mixed\'', '"a" and "b', "it's"]) expect(isQuotedSetting(value), value).toBe(false);
  });

  it('is named with what keeps the quotes and the fix', () => {
    expect(quotedSettingProblem('PAYFORM_ADMIN_TOKEN')).toBe(
      'PAYFORM_ADMIN_TOKEN is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
    );
  });
});
