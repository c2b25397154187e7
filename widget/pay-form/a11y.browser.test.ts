import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createSession } from '../test/checkout-fixture.js';
import { advanceGatewayClock } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, errorText, field, focused, heard as heardOf, message, mount, mountWithSavedCard, part, press, record, type, watchFetch } from '../test/harness.js';

/**
 * What a screen reader hears from the form, in order: each field focus reaches, as its label and
 * description (aria-describedby, read once the update is done, as the browser's accessibility tree
 * has it), and the new words of each live region that is not `aria-live=off` as they change.
 */
function listen(form: HTMLElement): () => string[] {
  const root = form.shadowRoot!;
  const heard: (string | HTMLInputElement)[] = [];
  new MutationObserver((records) => {
    const regions = new Set(records.map(({ target }) => (target instanceof Element ? target : target.parentElement)?.closest('[role=status]')));
    for (const region of regions) if (region && region.getAttribute('aria-live') !== 'off' && region.textContent!.trim()) heard.push(region.textContent!.trim());
  }).observe(root, { subtree: true, childList: true, characterData: true });
  root.addEventListener('focusin', ({ target }) => target instanceof HTMLInputElement && heard.push(target));
  const described = (input: HTMLInputElement): string =>
    input.getAttribute('aria-describedby')!.split(' ').map((id) => root.getElementById(id)!.textContent!.trim()).filter(Boolean).join(' ');
  return () => heard.map((said) => (typeof said === 'string' ? said : `${said.labels![0]!.textContent!.trim()}: ${described(said)}`));
}

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

  it('rings only what has focus: the chosen saved card is marked otherwise, and the pay button focused is the one ring', async () => {
    const form = await mountWithSavedCard();
    const root = form.shadowRoot!;
    const [saved, other] = [...root.querySelectorAll<HTMLInputElement>('[type=radio]')];
    expect([saved!.checked, other!.checked]).to.deep.equal([true, false]);
    // The ring's outer part, in the accent: whatever shows it looks focused.
    const ringed = (): Element[] => [...root.querySelectorAll('*')].filter((each) => getComputedStyle(each).boxShadow.includes('rgb(51, 71, 214) 0px 0px 0px 4px'));
    button(form).focus();
    await press('Shift+Tab');
    expect(root.activeElement === saved, 'Shift+Tab from the button reaches the chosen card').to.equal(true);
    expect(ringed().every((each) => each === saved || each === saved!.parentElement), 'a ring away from the focused card').to.equal(true);
    expect(ringed().includes(saved!.parentElement!), 'the focused card ringed').to.equal(true);
    await press('Tab');
    expect(root.activeElement === button(form)).to.equal(true);
    expect(ringed()).to.deep.equal([button(form)]);
    // Still marked chosen, by a border unlike the other card's.
    const border = (radio: HTMLInputElement): string => getComputedStyle(radio.parentElement!).borderTopColor;
    expect(border(saved!)).to.equal('rgb(51, 71, 214)');
    expect(border(other!)).not.to.equal(border(saved!));
  });

  // By keyboard, as the customer would: back to the cards (the new card's radio), up to the saved
  // one. Or by a click that leaves the focus in the card number, as an assistive technology's may:
  // Chromium tells the focused field's removal as its focus leaving it.
  for (const [how, choose] of [
    ['by keyboard', async () => (await press('Shift+Tab'), await press('ArrowUp'))],
    ['by a click that leaves the focus in the card number', async (saved: HTMLInputElement) => saved.click()],
  ] as const) {
    it(`takes the card fields’ errors and their summary away as a saved card is chosen ${how}: nothing left to fix`, async () => {
      const form = await mountWithSavedCard();
      const [saved, other] = [...form.shadowRoot!.querySelectorAll<HTMLInputElement>('[type=radio]')];
      other!.click();
      await form.updateComplete;
      await type(field(form, 'number'), '4242');
      button(form).click();
      await waitUntil(() => message(form) === 'Check the highlighted fields.', 'no summary');
      expect([focused(form), form.hasAttribute('invalid')]).to.deep.equal(['number', true]);
      const brands = record(form, 'pay-brand-change');
      await choose(saved!);
      await form.updateComplete;
      expect(saved!.checked).to.equal(true);
      expect(form.shadowRoot!.querySelector('#number'), 'the card fields gone').to.equal(null);
      // No highlighted field to check: the summary would send the customer looking for one.
      expect([message(form), form.invalid, form.hasAttribute('invalid')]).to.deep.equal(['', false, false]);
      // A new card again: its fields come back empty and untouched, not already wrong, nor wrong
      // ("required") as the customer passes through the number they have not typed in yet.
      other!.click();
      await form.updateComplete;
      field(form, 'number').focus();
      await press('Tab');
      await form.updateComplete;
      expect(form.inputs().map((input) => [input.name, input.getAttribute('aria-invalid')])).to.deep.equal([['number', 'false'], ['exp', 'false'], ['cvv', 'false']]);
      // Nor marked with the brand of the number typed before: the page heard that brand go.
      expect([part(form, '#number ~ * [part=icon]').getAttribute('aria-label'), brands.at(-1)]).to.deep.equal([null, {}]);
    });
  }

  it('is [complete] as the chosen card leaves it: a saved card at once, a new card’s fields once typed', async () => {
    const form = await mountWithSavedCard();
    const [saved, other] = [...form.shadowRoot!.querySelectorAll<HTMLInputElement>('[type=radio]')];
    // The page may enable its own pay button on [complete]: a saved card, nothing else asked, pays.
    expect([form.complete, form.hasAttribute('complete')], 'a saved card chosen for the customer').to.deep.equal([true, true]);
    other!.click();
    await form.updateComplete;
    expect(form.complete, 'a new card, nothing typed').to.equal(false);
    saved!.click();
    await form.updateComplete;
    expect(form.complete, 'the saved card chosen again').to.equal(true);
    other!.click();
    await form.updateComplete;
    autofill(form, card('4242424242424242'));
    await form.updateComplete;
    expect(form.hasAttribute('complete'), 'a whole new card typed').to.equal(true);
    saved!.click();
    await form.updateComplete;
    other!.click();
    await form.updateComplete;
    // Three empty fields cannot be submitted.
    expect(form.inputs().map((input) => input.value)).to.deep.equal(['', '', '']);
    expect([form.complete, form.hasAttribute('complete')]).to.deep.equal([false, false]);
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

  it('says what a failed submit found once: the field it focuses, with its error, and then the summary', async () => {
    const form = await mount({ customer: {} });
    const heard = listen(form);
    button(form).click();
    await form.updateComplete;
    await waitUntil(() => message(form), 'no summary');
    // Every field shows its error; only the focused one is read, by focus.
    expect(errorText(form, 'email')).to.equal('This field is required.');
    expect(heard()).to.deep.equal(['Card number: This field is required.', 'Check the highlighted fields.']);
    // Live again for what comes as the customer types and leaves fields, once that was said.
    await waitUntil(() => !form.shadowRoot!.querySelector('[part=error][aria-live]'), 'the errors stay silenced', { timeout: 5000 });
    await type(field(form, 'number'), '4242');
    await press('Tab');
    await form.updateComplete;
    expect(heard().slice(2)).to.deep.equal(['Visa', 'The card number is incomplete.', 'Expiry date: This field is required. MM/YY']);
  });

  it('takes the summary away once no field it sums up shows an error: no stale message left', async () => {
    const form = await mount({ customer: {} });
    button(form).click();
    await waitUntil(() => message(form) === 'Check the highlighted fields.', 'no summary');
    autofill(form, { ...card('4242424242424242'), fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com' });
    await form.updateComplete;
    expect(message(form), 'a field is still to fix').to.equal('Check the highlighted fields.');
    autofill(form, { phone: '+380671234567' });
    await form.updateComplete;
    expect([form.invalid, message(form)]).to.deep.equal([false, '']);
  });

  it('says the error of the field Enter was pressed in, which focus does not move from', async () => {
    const form = await mount({ customer: {} });
    field(form, 'number').focus();
    const heard = listen(form);
    await press('Enter');
    await form.updateComplete;
    await waitUntil(() => message(form), 'no summary');
    expect(focused(form)).to.equal('number');
    expect(heard()).to.deep.equal(['This field is required.', 'Check the highlighted fields.']);
  });

  it('says a field the companion refused once, as focus reaches it, with the message', async () => {
    const form = await mount({ customer: {} });
    autofill(form, { ...card('4242424242424242'), fname: 'O'.repeat(257), lname: 'K', email: `${'o'.repeat(65)}@example.com`, phone: '+380 50 123 4567' });
    await form.updateComplete;
    const heard = listen(form);
    const error = oneEvent(form, 'pay-error');
    button(form).click();
    // What to do now: correct the fields, not "try again", which would be refused the same.
    expect((await error).detail).to.deep.equal({ code: 'rejected', message: 'Check the highlighted fields.' });
    await waitUntil(() => focused(form) === 'fname', 'the refused field is not focused');
    expect(errorText(form, 'email')).to.equal('Enter a valid email address.');
    expect(heard().filter((words) => words !== 'Processing payment…')).to.deep.equal(['Check the highlighted fields.', 'First name: Check this value.']);
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

  it('keeps focus on the pay button while it pays: marked disabled, not dropped to the page', async () => {
    // The pay call is held until the busy button is read: a key press goes through the test
    // runner, and a fast sandbox could otherwise settle the payment before it returns.
    let answerPay!: () => void;
    const payHeld = new Promise<void>((resolve) => (answerPay = resolve));
    const calls = watchFetch((call, pass) => (call.url.endsWith('/pay') ? payHeld.then(pass) : undefined));
    try {
      const form = await mount();
      autofill(form, card('4242424242424242'));
      button(form).focus();
      const success = oneEvent(form, 'pay-success');
      await press('Space');
      await form.updateComplete;
      expect([busy(button(form)), button(form).getAttribute('aria-disabled'), form.shadowRoot!.activeElement === button(form)]).to.deep.equal([true, 'true', true]);
      answerPay();
      await success;
    } finally {
      calls.restore();
    }
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
    // The last card field: the customer Tabs on, as from the others they may.
    expect(focused(form), 'a complete code stays').to.equal('cvv');
    await press('Tab');
    expect(focused(form)).to.equal('email');
    await sendKeys({ type: 'olena@example.com' });
    await press('Tab');
    expect(form.shadowRoot!.activeElement === button(form), 'focus on the pay button').to.equal(true);
    // Its ring is the accent itself (#3347d6), past a gap of the background: 3:1 or more on the page and the button.
    expect(getComputedStyle(button(form)).boxShadow).to.equal('rgb(255, 255, 255) 0px 0px 0px 2px, rgb(51, 71, 214) 0px 0px 0px 4px');
    const success = oneEvent(form, 'pay-success');
    await press('Enter');
    await success;
  });

  it('says "Payment successful" once as focus goes from the fields to it: read by focus, not also as a live region', async () => {
    const form = await mount();
    autofill(form, card('4242424242424242'));
    field(form, 'cvv').focus();
    const heard = heardOf(form);
    const paid = oneEvent(form, 'pay-success');
    await press('Enter');
    await paid;
    await waitUntil(() => form.shadowRoot!.activeElement === part(form, '[part=message]'), 'focus was lost with the fields');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).to.deep.equal(['Processing payment…', 'Payment successful']);
  });

  it('says "Confirming your payment…" once as focus goes from the fields to it', async () => {
    const form = await mount();
    form.pollInterval = 50;
    autofill(form, card('4000000000000119'));
    field(form, 'cvv').focus();
    const heard = heardOf(form);
    await press('Enter');
    await waitUntil(() => message(form) === 'Confirming your payment…', 'no confirming state');
    await waitUntil(() => form.shadowRoot!.activeElement === part(form, '[part=message]'), 'focus was lost with the fields');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).to.deep.equal(['Processing payment…', 'Confirming your payment…']);
    // Later words on the focused message are news, said by its live region.
    const paid = oneEvent(form, 'pay-success');
    await advanceGatewayClock(5);
    await paid;
    await form.updateComplete;
    expect(heard.slice(2)).to.deep.equal(['Payment successful']);
  });
});
