/**
 * `amount` is the session's: a page that sets it on the element before the element is defined (a
 * framework's template rendered before pay-form.js ran) changes nothing the customer sees, and the
 * console says so, as when set later.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { createSession } from '../test/checkout-fixture.js';

describe('amount set before the element is defined', () => {
  it('shows the session’s amount, not the page’s, and says so on the console', async () => {
    const session = await createSession();
    const frame = document.createElement('iframe');
    frame.srcdoc = `<pay-form session="${session}" endpoint="${location.origin}"></pay-form><script>const errors = (window.said = []); console.error = (text) => errors.push(text); document.querySelector('pay-form').amount = 1999</script><script type="module" src="/widget/index.ts"></script>`;
    document.body.append(frame);
    try {
      const button = () => frame.contentDocument?.querySelector('pay-form')?.shadowRoot?.querySelector('[part~=button]');
      await waitUntil(() => button() && !/^Pay$/.test(button()!.textContent!.trim()), 'no button with an amount', { timeout: 8000 });
      expect(button()!.textContent).to.not.contain('1999');
      expect((frame.contentWindow as unknown as { said: string[] }).said.join('\n')).to.contain('amount is the checkout session');
    } finally {
      frame.remove();
    }
  });
});
