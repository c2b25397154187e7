// What paying takes is a chunk fetched as the element shows (checkout-element.ts, `loadPaying`).
// A customer whose connection went down as it was fetched: nothing answers for it, so the page is
// not set up wrong (paying-chunk-missing.browser.test.ts), and the customer may try again. This
// file's page has not loaded it, and its one test drops it (a page that failed to load a module
// keeps failing).
import { expect, oneEvent } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, button, card, message, show, watchConsoleErrors } from '../test/harness.js';

const PAYING = '/widget/checkout/paying.ts';

describe('a click whose paying chunk did not come, the connection down', () => {
  let logged: ReturnType<typeof watchConsoleErrors>;
  afterEach(async () => {
    logged.restore();
    await answerModule(PAYING, 'serve');
  });

  it('is a network error the customer may try again, and nothing is said to the developer', async () => {
    logged = watchConsoleErrors();
    await answerModule(PAYING, 'drop');
    const form = await show();
    autofill(form, card('4242424242424242'));
    const error = oneEvent(form, 'pay-error');
    button(form).click();
    expect((await error).detail).to.deep.equal({ code: 'network', message: 'Could not reach the payment service. Please try again.' });
    await form.updateComplete;
    expect(message(form)).to.equal('Could not reach the payment service. Please try again.');
    expect(button(form).textContent, 'the button on offer again').to.match(/^Pay UAH\s100\.50$/);
    expect(logged, logged.join('\n')).to.deep.equal([]);

    // The connection is back and the chunk's server answers, without it: asked again, not taken
    // for the network it was a moment ago.
    await answerModule(PAYING, 'fail');
    const again = oneEvent(form, 'pay-error');
    button(form).click();
    expect((await again).detail.code).to.equal('misconfigured');
    expect(logged.join('\n')).to.match(/paying\.ts did not load: serve every file of the build, allowed/);
  });
});
