import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { createSession } from '../test/checkout-fixture.js';
import { autofill, button, card, message, mount, part } from '../test/harness.js';

/** A card verification ("save a card") of 1.00 UAH for a customer, at the shop's real companion. */
const verification = { method: 'lookup', amount: 100, customer_id: 'cust-widget' } as const;

describe('a card verification session (lookup)', () => {
  it('<pay-form> says it saves the card and charges nothing, with no "Pay <amount>" button, and saves it', async () => {
    const form = await mount(verification);
    expect(button(form).textContent!.trim()).to.equal('Save card');
    const buttons = [...form.shadowRoot!.querySelectorAll('button')].map((element) => element.textContent!.trim());
    expect(buttons.filter((text) => /^Pay\b/.test(text))).to.deep.equal([]);
    expect(part(form, '[part=note]').textContent).to.match(/Nothing is charged/).and.to.contain('1.00');
    // The customer's details are not asked for a verification.
    expect(form.shadowRoot!.querySelector('#email')).to.equal(null);

    const success = oneEvent(form, 'pay-success');
    autofill(form, card('4242424242424242'));
    button(form).click();
    await success;
    await form.updateComplete;
    expect(message(form)).to.equal('Card saved');
  });

  it('speaks the page’s language, also when it changes', async () => {
    const form = await mount(verification, { lang: 'uk' });
    expect(button(form).textContent!.trim()).to.equal('Зберегти картку');
    expect(part(form, '[part=note]').textContent).to.contain('Кошти не списуються');
    form.setAttribute('lang', 'de');
    await waitUntil(() => button(form).textContent!.trim() === 'Karte speichern', 'the German words did not come');
    expect(part(form, '[part=note]').textContent).to.contain('nichts abgebucht');
  });

  it('goes back to paying when the element is given a payment session', async () => {
    const form = await mount(verification);
    form.session = await createSession({ amount: 200 });
    // While the new session loads there is no button at all.
    await waitUntil(() => /^Pay /.test(form.shadowRoot!.querySelector('[part~=button]')?.textContent?.trim() ?? ''), 'the Pay button did not come back');
    expect(form.shadowRoot!.querySelector('[part=note]')).to.equal(null);
  });

  it('<pay-button> (hosted) saves a card too, and says so', async () => {
    const element = await mount(verification, {}, 'pay-button');
    expect(button(element).textContent!.trim()).to.equal('Save card on the secure payment page');
    expect(part(element, '[part=note]').textContent).to.match(/Nothing is charged/);
  });

  it('a payment session still offers to pay its amount', async () => {
    const form = await mount({ amount: 100 });
    expect(button(form).textContent!.trim()).to.match(/^Pay .*1\.00/);
    expect(form.shadowRoot!.querySelector('[part=note]')).to.equal(null);
  });
});
