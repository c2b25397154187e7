// In tokenize mode the card goes to the gateway's tokenizer from a chunk loaded at pay time
// (tokenized.ts). A server that answers for it but does not serve it (pay-form.js deployed
// without its chunks/) sent the card nowhere, and the page is set up wrong: this file's page
// fails it, and its one test is the only one here (a page that failed to load a module keeps
// failing). A customer offline as it is fetched: tokenized-missing.browser.test.ts.
import { expect } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, field, mount, OLENA, pressedMisconfigured, watchConsoleErrors, watchFetch } from '../test/harness.js';

const TOKENIZED = '/widget/pay-form/tokenized.ts';

describe('a tokenize-mode payment whose tokenizer chunk the server does not serve', () => {
  afterEach(() => answerModule(TOKENIZED, 'serve'));

  it('is a misconfigured error naming the chunk and the fix, once, with the form kept and nothing sent', async () => {
    const logged = watchConsoleErrors();
    const calls = watchFetch();
    try {
      await answerModule(TOKENIZED, 'fail');
      const form = await mount({ merchant: 'tokenize', customer: {} });
      autofill(form, { ...card('4242424242424242'), ...OLENA });
      await pressedMisconfigured(form, (detail) => {
        expect(detail.reason).to.match(/^http:\/\/\S+\/widget\/pay-form\/tokenized\.ts\S* did not load: serve every file of the build, allowed by script-src/);
        expect(logged, 'said once').to.deep.equal([`<pay-form>: ${detail.reason}`]);
      });
      await form.updateComplete;
      expect(calls.filter((call) => call.url.endsWith('/pay')), 'no pay request').to.deep.equal([]);
      expect([busy(button(form)), field(form, 'number').value, field(form, 'email').value]).to.deep.equal([false, '4242 4242 4242 4242', 'olena@example.com']);
    } finally {
      calls.restore();
      logged.restore();
    }
  });
});
