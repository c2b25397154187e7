// What paying takes is a chunk fetched as the element shows (checkout-element.ts, `loadPaying`).
// On a slow network the customer may click before it has come: this file's page has not loaded it,
// and its one test holds it back (a page loads a module once).
import { expect, oneEvent } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, field, message, part, show, stay, watchFetch } from '../test/harness.js';

const PAYING = '/widget/checkout/paying.ts';

describe('a click before what paying takes has come', () => {
  let calls: ReturnType<typeof watchFetch> | undefined;
  afterEach(async () => {
    calls?.restore();
    await answerModule(PAYING, 'serve');
  });

  it('is taken at once, said, and paid once when the chunk comes: <pay-form> and <pay-button>', async () => {
    await answerModule(PAYING, 'hold');
    const form = await show();
    const payButton = await show({}, {}, 'pay-button');
    autofill(form, card('4242424242424242'));
    calls = watchFetch();
    button(form).click();
    button(payButton).click();
    await Promise.all([form.updateComplete, payButton.updateComplete]);
    for (const element of [form, payButton]) {
      expect(busy(button(element)), `<${element.localName}>'s button`).to.equal(true);
      expect(button(element).textContent).to.equal('Processing payment…');
      expect(message(element), 'the live region says so').to.equal('Processing payment…');
      expect(element.hasAttribute('processing')).to.equal(true);
    }
    expect(part(form, 'form').getAttribute('aria-busy')).to.equal('true');
    // Submitted again while it waits (a page's script; Enter finds the button disabled): the same payment.
    part<HTMLFormElement>(form, 'form').requestSubmit();
    expect(calls, 'nothing sent before the chunk').to.deep.equal([]);
    // Formatting is the chunk's too: what was typed before it is formatted once it comes.
    const number = field(form, 'number');
    expect(number.value).to.equal('4242424242424242');

    const paid = oneEvent(form, 'pay-success');
    const redirect = stay(payButton);
    await answerModule(PAYING, 'serve');
    await paid;
    expect((await redirect).detail.reason).to.equal('hosted');
    expect(calls.filter((call) => call.url.endsWith('/pay')).length, 'one payment').to.equal(1);
    expect(number.value).to.equal('4242 4242 4242 4242');
  });
});
