// Tokenize mode on a page whose origin the gateway project does not take (its widget origins name
// a live shop only): the tokenizer answers without CORS headers, which to the browser looks as a
// tokenizer out of reach does. The customer pays on the hosted page; the developer is told that
// the project must take this page's origin, not to look at the Content-Security-Policy.
import { expect } from '@open-wc/testing';
import { openCheckout } from '../test/checkout-fixture.js';
import { autofill, button, card, json, mount, payPastTokenizer, stay, watchFetch } from '../test/harness.js';

describe('<pay-form> in tokenize mode on a page the gateway project does not take', () => {
  it('goes to the hosted page and names the project’s widget origins on the console, as an error', async () => {
    const { id, companion_url } = await openCheckout({ merchant: 'tokenize-far' });
    const { tokenizer, error } = await payPastTokenizer(id, companion_url);
    expect(error).to.equal(
      `<pay-form>: the gateway's tokenizer at ${tokenizer} did not answer this page: it does not take this page's origin, ${location.origin}: ` +
        "add it to the gateway project's widget origins (the sandbox's: widget_origins in its projects file); the customer pays on the hosted page instead",
    );
  });
});

describe('<pay-form> in tokenize mode on a tokenizer that fails (5xx) for a page it takes', () => {
  it('goes to the hosted page and warns of the tokenizer’s answer, not of the page’s origin or policy', async () => {
    const { id, companion_url } = await openCheckout({ merchant: 'tokenize' });
    const warnings: string[] = [];
    const real = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(String(args[0]));
    const calls = watchFetch(({ url }) => (url.endsWith('/api/v1/sdk/tokenize') ? Promise.resolve(json(503, { error: 'busy' })) : undefined));
    try {
      const form = await mount(id, { endpoint: companion_url });
      const redirect = stay(form);
      autofill(form, card('4242424242424242'));
      button(form).click();
      expect((await redirect).detail.reason).to.equal('hosted');
      expect(warnings).to.deep.equal([
        `<pay-form>: the gateway's tokenizer at ${form.view!.tokenizer!.url} did not answer this page: its answer was late or unusable (The tokenizer failed with 503); the customer pays on the hosted page instead`,
      ]);
    } finally {
      calls.restore();
      console.warn = real;
    }
  });
});
