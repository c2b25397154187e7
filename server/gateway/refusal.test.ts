// What a refusal of the credentials says is kept for the operator with each credential named,
// never quoted — and only the credentials: a test project's other values, which share a prefix
// with its secret, and ordinary words that hold a short key, stay as the gateway wrote them.
import { describe, expect, it } from 'vitest';
import { refusalWords } from './refusal.js';

const SANDBOX = [
  { name: 'API key', value: 'sandbox-test-api-key' },
  { name: 'API secret', value: 'sandbox-test-api-secret-32-bytes' },
  { name: 'endpoints key', value: 'sandbox-test-endpoints-key' },
];

describe('refusalWords', () => {
  it('names a credential quoted whole or cut short', () => {
    expect(refusalWords({ message: 'Invalid credentials: CPAY sandbox-test-api-key:sandbox-test-api-secret-32-bytes' }, SANDBOX)).toBe('Invalid credentials: CPAY [API key]:[API secret]');
    expect(refusalWords({ message: 'secret sandbox-test-api-secret-32… refused' }, SANDBOX)).toBe('secret [API secret] refused');
  });

  it('keeps values that only share a test prefix with a credential', () => {
    const message = 'widget key sandbox-test-widget-key of project sandbox-test-shop is not for this route';
    expect(refusalWords({ message }, SANDBOX)).toBe(message);
  });

  it('leaves alone a credential too short to tell from the gateway’s own words', () => {
    const short = [{ name: 'API key', value: 'test' }, { name: 'API secret', value: 'longer-secret' }];
    expect(refusalWords({ message: 'this test project refuses CPAY test:longer-secret' }, short)).toBe('this test project refuses CPAY test:[API secret]');
  });
});
