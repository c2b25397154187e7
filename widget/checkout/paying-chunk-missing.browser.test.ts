// What paying takes is a chunk fetched as the element shows (checkout-element.ts, `loadPaying`).
// A page whose server answers for it but does not serve it (pay-form.js copied without its
// chunks/): the page is set up wrong, not the customer offline (paying-chunk-offline.browser.test.ts).
// This file's page has not loaded it, and its one test fails it (a page that failed to load a
// module keeps failing).
import { expect, oneEvent } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, field, message, press, show, type, watchConsoleErrors } from '../test/harness.js';

const PAYING = '/widget/checkout/paying.ts';

/** The part of the element that has the focus (none: the focus is elsewhere, the page's body). */
const focusedPart = (element: Element): string | null | undefined => element.shadowRoot!.activeElement?.getAttribute('part');

describe('a click before what paying takes has come, when its server does not serve it', () => {
  let logged: ReturnType<typeof watchConsoleErrors>;
  afterEach(async () => {
    logged.restore();
    await answerModule(PAYING, 'serve');
  });

  it('ends in a misconfigured error, not busy for ever, and the console names the missing chunk and the fix, once', async () => {
    logged = watchConsoleErrors();
    await answerModule(PAYING, 'hold');
    const form = await show();
    const payButton = await show({}, {}, 'pay-button');
    autofill(form, card('4242424242424242'));
    const errors = [oneEvent(form, 'pay-error'), oneEvent(payButton, 'pay-error')];
    // The form's button from the keyboard: focused, as a click focuses it too.
    button(form).focus();
    await press('Enter');
    button(payButton).click();
    await Promise.all([form.updateComplete, payButton.updateComplete]);
    expect([busy(button(form)), busy(button(payButton))], 'busy while the chunk is awaited').to.deep.equal([true, true]);

    await answerModule(PAYING, 'fail');
    const said = 'Something went wrong. Please try again in a moment.';
    for (const [index, element] of [form, payButton].entries()) {
      const { detail } = await errors[index]!;
      expect([detail.code, detail.message]).to.deep.equal(['misconfigured', said]);
      expect(detail.reason).to.match(/^http:\/\/\S+\/widget\/checkout\/paying\.ts\S* did not load: serve every file of the build, allowed by script-src/);
      await element.updateComplete;
      expect(busy(button(element)), `<${element.localName}>'s button`).to.equal(false);
      expect(button(element).textContent).to.match(/^Pay UAH\s100\.50/);
      expect(element.hasAttribute('processing')).to.equal(false);
      expect(message(element)).to.equal(said);
    }
    const { reason } = (await errors[0]!).detail;
    // The disabled button dropped the focus: it comes back to the button, not to the page's start.
    expect(focusedPart(form), 'focus back on the pay button').to.equal('button');

    // Again from <pay-button>'s own button (the module fails at once now).
    button(payButton).focus();
    const again = oneEvent(payButton, 'pay-error');
    await press('Enter');
    expect((await again).detail).to.deep.include({ code: 'misconfigured', reason });
    await payButton.updateComplete;
    expect(focusedPart(payButton), "focus back on <pay-button>'s button").to.equal('button');
    // Once, whichever element met it first, not again at each click.
    expect(logged).to.have.length(1);
    expect(logged[0]).to.match(/^<pay-(form|button)>: /);
    expect(logged[0]!.slice(logged[0]!.indexOf(' ') + 1)).to.equal(reason);

    // Typing on, unformatted: nor once a digit.
    const number = field(form, 'number');
    number.value = '';
    await type(number, '555555');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(number.value).to.equal('555555');
    expect(logged, 'said again while typing').to.have.length(1);
  });
});
