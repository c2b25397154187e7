import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createSession } from '../test/checkout-fixture.js';
import { autofill, button, card, errorText, field, focused, mount, part, press, type } from '../test/harness.js';

describe('accessibility', () => {
  it('has no axe violations: a test session with customer fields and test cards', async () => {
    const form = await mount({ customer: {} });
    await waitUntil(() => form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards');
    part<HTMLDetailsElement>(form, 'details').open = true;
    await expect(form).to.be.accessible();
  });

  it('has no axe violations with errors showing', async () => {
    const form = await mount({ customer: {} });
    button(form).click();
    await form.updateComplete;
    await expect(form).to.be.accessible();
  });

  it('has no axe violations with saved cards, in dark colours too', async () => {
    const customer_id = `a11y-${crypto.randomUUID()}`;
    const first = await mount({ customer_id });
    const paid = oneEvent(first, 'pay-success');
    autofill(first, card('4242424242424242'));
    button(first).click();
    await paid;
    await expect(first, 'the success view').to.be.accessible();
    first.remove();
    const form = await mount({ customer_id });
    await expect(form).to.be.accessible();
    form.style.colorScheme = 'dark';
    document.body.style.background = '#101216';
    try {
      await expect(form).to.be.accessible();
    } finally {
      document.body.style.background = '';
    }
  });

  it('has no axe violations as a hosted pay button', async () => {
    await expect(await mount({}, {}, 'pay-button')).to.be.accessible();
  });

  it('labels each input and points it at its error and hint', async () => {
    const form = await mount({ customer: {} });
    for (const input of form.shadowRoot!.querySelectorAll('input')) {
      expect(input.labels?.[0]?.textContent?.trim().length, input.name).to.be.greaterThan(0);
      const described = input.getAttribute('aria-describedby')!.split(' ');
      expect(described[0], input.name).to.equal(`${input.name}-error`);
      for (const id of described) expect(form.shadowRoot!.getElementById(id), `${input.name} → ${id}`).not.to.equal(null);
    }
    expect(field(form, 'exp').getAttribute('aria-describedby')).to.equal('exp-error exp-hint');
  });

  it('says each field error and the brand as they appear, from live regions there before them', async () => {
    const form = await mount({ customer: {} });
    const live = (selector: string): HTMLElement => {
      const region = part(form, selector).closest<HTMLElement>('[role=status]');
      expect(region, `${selector} in a live region`).not.to.equal(null);
      return region!;
    };
    const regions = form.inputs().map((input) => live(`#${input.name}-error`));
    const brand = live('#number ~ * [part=icon]');
    // In the accessibility tree while empty: a region that only appears with its words says nothing.
    for (const region of [...regions, brand]) expect(getComputedStyle(region).display, region.id).not.to.equal('none');
    await type(field(form, 'number'), '55');
    await form.updateComplete;
    expect(live('#number ~ * [part=icon]') === brand, 'the same brand region').to.equal(true);
    expect(brand.querySelector('[role=img]')?.getAttribute('aria-label')).to.equal('Mastercard');
    // A full Mastercard number failing Luhn: no more typing can make it valid, so it says so at once.
    await sendKeys({ type: '55555555554443' });
    await form.updateComplete;
    expect(errorText(form, 'number')).to.equal('The card number is invalid.');
    expect(part(form, '#number-error') === regions[0], 'the error in the region that was there').to.equal(true);
    expect(field(form, 'number').getAttribute('aria-invalid')).to.equal('true');
  });

  it('has its polite live region from the first render, before the session loads', async () => {
    const form = document.createElement('pay-form');
    form.session = await createSession();
    const ready = oneEvent(form, 'pay-ready');
    await fixture(form);
    expect(form.shadowRoot!.querySelector('.spinner'), 'still loading').not.to.equal(null);
    const region = part(form, '[part=message]');
    expect(region.getAttribute('role')).to.equal('status');
    // Empty, it takes no room but is rendered: a region the accessibility tree lacks until its
    // first words would not announce them.
    expect(getComputedStyle(region).display).not.to.equal('none');
    expect(region.getBoundingClientRect().height).to.equal(0);
    await ready;
    await form.updateComplete;
    expect(part(form, '[part=message]') === region, 'the same element throughout').to.equal(true);
    const failure = oneEvent(form, 'pay-failure');
    autofill(form, card('4000000000000002'));
    button(form).click();
    const { message } = (await failure).detail;
    await form.updateComplete;
    expect(part(form, '[part=message]') === region, 'still the same element').to.equal(true);
    expect(region.textContent).to.equal(message);
  });

  it('works from the keyboard alone: Tab through the fields to the button, Enter pays', async () => {
    const form = await mount({ customer: { fname: 'Olena', lname: 'Kovalenko', phone: '+380671234567' } });
    form.focus();
    expect(focused(form), 'delegatesFocus: the first field').to.equal('number');
    await sendKeys({ type: '4242424242424242' });
    await press('Tab');
    await sendKeys({ type: `12${String(new Date().getFullYear() + 2).slice(2)}` });
    expect(focused(form)).to.equal('cvv');
    await sendKeys({ type: '123' });
    expect(focused(form), 'a complete code moves on').to.equal('email');
    await sendKeys({ type: 'olena@example.com' });
    await press('Tab');
    expect(form.shadowRoot!.activeElement === button(form), 'focus on the pay button').to.equal(true);
    // Its ring is the accent itself (#3347d6), past a gap of the background: 3:1 or more on the page and the button.
    expect(getComputedStyle(button(form)).boxShadow).to.equal('rgb(255, 255, 255) 0px 0px 0px 2px, rgb(51, 71, 214) 0px 0px 0px 4px');
    const success = oneEvent(form, 'pay-success');
    await press('Enter');
    await success;
  });
});
