// In tokenize mode the card goes to the gateway's tokenizer from a chunk loaded at pay time
// (tokenized.ts). A customer offline as it is fetched sent the card nowhere: this file's page
// drops it, and its one test is the only one here (a page that failed to load a module keeps
// failing). A server that does not serve it: tokenized-unserved.browser.test.ts.
import { expect, oneEvent } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, field, message, mount, watchConsoleErrors, watchFetch } from '../test/harness.js';

const TOKENIZED = '/widget/pay-form/tokenized.ts';

describe('a tokenize-mode payment whose tokenizer chunk cannot load', () => {
  afterEach(() => answerModule(TOKENIZED, 'serve'));

  it('is an ordinary error with the form kept, never a payment to confirm: nothing was sent', async () => {
    const logged = watchConsoleErrors();
    try {
      await answerModule(TOKENIZED, 'drop');
      const form = await mount({ merchant: 'tokenize', customer: {} });
      autofill(form, { ...card('4242424242424242'), fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' });
      // Offline as the customer pays: the chunk does not come, nor does the session read again.
      const calls = watchFetch((call) => (call.url.includes('/api/checkout/sessions/') ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
      const failed = oneEvent(form, 'pay-error');
      button(form).click();
      expect((await failed).detail).to.deep.equal({ code: 'network', message: 'Could not reach the payment service. Please try again.' });
      await form.updateComplete;
      expect(calls.filter((call) => call.url.endsWith('/pay')), 'no pay request').to.deep.equal([]);
      calls.restore();
      expect(message(form)).to.equal('Could not reach the payment service. Please try again.');
      expect([busy(button(form)), field(form, 'fname').value, field(form, 'email').value]).to.deep.equal([false, 'Olena', 'olena@example.com']);
    } finally {
      logged.restore();
    }
  });
});
