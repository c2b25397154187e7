// What paying takes is a chunk fetched as the element shows (checkout-element.ts, `loadPaying`).
// A page that cannot load it (offline, or a server without the widget's chunks/): this file's page
// has not loaded it, and its one test fails it (a page that failed to load a module keeps failing).
import { expect, oneEvent } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, field, message, press, show, type, watchConsoleErrors } from '../test/harness.js';

const PAYING = '/widget/checkout/paying.ts';

/** The part of the element that has the focus (none: the focus is elsewhere, the page's body). */
const focusedPart = (element: Element): string | null | undefined => element.shadowRoot!.activeElement?.getAttribute('part');

describe('a click before what paying takes has come, when it cannot', () => {
  let logged: ReturnType<typeof watchConsoleErrors>;
  afterEach(async () => {
    logged.restore();
    await answerModule(PAYING, 'serve');
  });

  it('ends in the usual error, not busy for ever, and the console names the missing chunk', async () => {
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
    for (const [index, element] of [form, payButton].entries()) {
      expect((await errors[index]!).detail).to.deep.equal({ code: 'network', message: 'Could not reach the payment service. Please try again.' });
      await element.updateComplete;
      expect(busy(button(element)), `<${element.localName}>'s button`).to.equal(false);
      expect(button(element).textContent).to.match(/^Pay UAH\s100\.50/);
      expect(element.hasAttribute('processing')).to.equal(false);
      expect(message(element)).to.equal('Could not reach the payment service. Please try again.');
    }
    // The disabled button dropped the focus: it comes back to the button, not to the page's start.
    expect(focusedPart(form), 'focus back on the pay button').to.equal('button');

    // Again from <pay-button>'s own button (the module fails at once now).
    button(payButton).focus();
    const again = oneEvent(payButton, 'pay-error');
    await press('Enter');
    expect((await again).detail.code).to.equal('network');
    await payButton.updateComplete;
    expect(focusedPart(payButton), "focus back on <pay-button>'s button").to.equal('button');
    expect(logged.length, 'said on the console').to.be.greaterThan(0);

    // Typing on, unformatted: the chunk that formats is not asked for again at each keystroke,
    // so the console says its failure once, not once a digit.
    const said = logged.length;
    const number = field(form, 'number');
    number.value = '';
    await type(number, '555555');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(number.value).to.equal('555555');
    expect(logged.length, 'said again while typing').to.equal(said);
    expect(logged.every((line) => /^<pay-(form|button)>: serve all of dist\/, allowed by the page's script-src: .*paying/.test(line)), logged.join('\n')).to.equal(true);
  });
});
