// A page under a strict style policy: no inline <style>, no style attributes. The widget styles
// itself with constructed style sheets only, so nothing may be refused.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { autofill, button, card, field, mount, press, type } from '../test/harness.js';

describe('under a strict Content-Security-Policy', () => {
  const violations: string[] = [];
  before(() => {
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective}: ${event.blockedURI}`));
    const policy = document.createElement('meta');
    policy.httpEquiv = 'Content-Security-Policy';
    policy.content = "style-src 'self'; style-src-attr 'none'; object-src 'none'";
    document.head.append(policy);
  });

  it('renders, validates, pays and shows test mode without a single violation', async () => {
    // The policy is live: an inline style is refused (this is what the widget must never need).
    const probe = document.createElement('style');
    probe.textContent = 'body { outline: 1px solid red }';
    document.head.append(probe);
    await waitUntil(() => violations.length === 1, 'the policy is not enforced');
    probe.remove();
    violations.length = 0;

    const form = await mount();
    await waitUntil(() => form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards');
    await type(field(form, 'number'), '4242');
    await press('Tab');
    autofill(form, card('4242424242424242'));
    const success = oneEvent(form, 'pay-success');
    button(form).click();
    await success;
    await form.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(violations).to.deep.equal([]);
    expect(getComputedStyle(form).display, 'its styles apply').to.equal('block');
  });
});
