// A card verification's words (`lookup`, widget/i18n/lookup.ts) are a chunk loaded only for such a
// session. A page that cannot load it (offline, a CDN hiccup) fails it: this file's page has not
// loaded it, and its one test fails it (a page that failed to load a module keeps failing).
import { expect, oneEvent } from '@open-wc/testing';
import { answerModule, openCheckout } from '../test/checkout-fixture.js';
import { message } from '../test/harness.js';

const LOOKUP = '/widget/i18n/lookup.ts';

describe("a card verification whose words cannot load", () => {
  afterEach(() => answerModule(LOOKUP, 'serve'));

  it('says so and reports pay-error, never a spinner for ever', async () => {
    await answerModule(LOOKUP, 'fail');
    const { id } = await openCheckout({ method: 'lookup', amount: 100, customer_id: 'cust-widget' });
    const form = document.createElement('pay-form');
    const error = oneEvent(form, 'pay-error');
    form.session = id;
    document.body.append(form);
    try {
      expect((await error).detail.code).to.equal('server');
      await form.updateComplete;
      expect(form.shadowRoot!.querySelector('.spinner'), 'no spinner left').to.equal(null);
      expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
    } finally {
      form.remove();
    }
  });
});
