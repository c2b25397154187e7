// A single-page shop whose cart changes opens another checkout session and sets it on the element
// it shows (property or attribute). The customer then sees the new session as a fresh element
// would show it: nothing of the last one's errors, summary, brand, saved card, test banner or
// outcome. What they typed of their card and details is theirs, not the session's: it stays,
// judged for the new session, but for the security code, typed again for the new amount.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayForm } from '../pay-form/pay-form.js';
import { createSession, openCheckout } from '../test/checkout-fixture.js';
import { autofill, button, card, errorText, field, json, message, mount, part, readsSession, record, watchFetch } from '../test/harness.js';

/** The brand mark beside the card number: its name, or '' when none shows. */
const brandShown = (form: PayForm): string => part(form, '[part~=field-number] [role=status]').textContent!.trim();

/** Whether the element shows the test mode banner. */
const banner = (element: Element): boolean => !!element.shadowRoot!.querySelector('[part=banner]');

/** What the card fields show: their values and errors. */
const cardFields = (form: PayForm) =>
  (['number', 'exp', 'cvv'] as const).map((name) => ({ name, value: field(form, name).value, error: errorText(form, name) }));

/** Sets `session` on `element` as `how` says, and waits until it shows it ready. */
async function swap(element: HTMLElementTagNameMap['pay-form' | 'pay-button'], session: string, how: 'property' | 'attribute' = 'property'): Promise<void> {
  const ready = oneEvent(element, 'pay-ready');
  if (how === 'attribute') element.setAttribute('session', session);
  else element.session = session;
  await ready;
  await element.updateComplete;
}

describe('an element given another session', () => {
  it('<pay-form>, by its attribute: the card typed stays, judged anew, and nothing else of the last session shows', async () => {
    const form = await mount();
    const brands = record(form, 'pay-brand-change');
    autofill(form, { number: '4242424242424242', exp: '12/2', cvv: '12' });
    button(form).click();
    await form.updateComplete;
    expect(message(form), 'the summary of a submit with mistakes').to.equal('Check the highlighted fields.');
    expect([brandShown(form), form.hasAttribute('invalid')]).to.deep.equal(['Visa', true]);

    await swap(form, await createSession({ amount: 2000 }), 'attribute');
    expect(button(form).textContent).to.match(/^Pay UAH\s20\.00$/);
    expect(message(form), 'no summary').to.equal('');
    expect(cardFields(form)).to.deep.equal([
      { name: 'number', value: '4242 4242 4242 4242', error: '' },
      // Incomplete, as it was typed: judged as typing is, not as a submit.
      { name: 'exp', value: '12/2', error: '' },
      { name: 'cvv', value: '', error: '' },
    ]);
    expect(brandShown(form), 'the brand of the number shown').to.equal('Visa');
    expect([form.hasAttribute('invalid'), form.hasAttribute('complete')]).to.deep.equal([false, false]);
    expect(brands.at(-1), 'the page last heard the brand shown').to.deep.equal({ brand: 'visa' });

    // Paid once complete, for the new session's amount.
    const paid = oneEvent(form, 'pay-success');
    autofill(form, card('4242424242424242'));
    button(form).click();
    expect((await paid).detail.orderId).to.equal(form.view!.order_id);
  });

  it('<pay-form> paying as the page sets another: that card is not put in the new form, nor its brand shown', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const payments = watchFetch((call, pass) => (call.url.endsWith('/pay') ? held.then(pass) : undefined));
    try {
      const form = await mount();
      const brands = record(form, 'pay-brand-change');
      autofill(form, card('5454545454545454'));
      button(form).click();
      await waitUntil(() => payments.some((call) => call.url.endsWith('/pay')), 'no payment was sent');
      const first = form.view!.order_id;
      await swap(form, await createSession({ amount: 2000 }));
      // Checked once the old payment's answer is in, which the page hears by its order, however
      // long a loaded machine takes: a fixed pause ran the checks before it, and it came in the next test.
      const paid = oneEvent(form, 'pay-success');
      answer();
      expect((await paid).detail.orderId).to.equal(first);
      await form.updateComplete;
      expect(cardFields(form).map(({ value }) => value)).to.deep.equal(['', '', '']);
      expect(brandShown(form), 'no brand beside an empty number').to.equal('');
      expect(brands.at(-1), 'the page last heard no brand').to.deep.equal({});
    } finally {
      payments.restore();
    }
  });

  it("<pay-form>: the last customer's saved card is neither offered nor chosen for a session without it", async () => {
    const customer_id = `customer-${crypto.randomUUID()}`;
    const first = await mount({ customer_id });
    const paid = oneEvent(first, 'pay-success');
    autofill(first, card('5454545454545454'));
    button(first).click();
    await paid;
    first.remove();
    const form = await mount({ customer_id });
    expect(!!form.shadowRoot!.querySelector('#number'), 'the saved card chosen').to.equal(false);

    await swap(form, await createSession({ amount: 2000 }));
    expect(!!form.shadowRoot!.querySelector('[part=saved]'), 'no saved cards').to.equal(false);
    expect(!!form.shadowRoot!.querySelector('#number'), 'card fields to pay with').to.equal(true);
    expect(form.token).to.equal('');
  });

  it('<pay-form>: a live session set after a test one shows neither its test banner nor its test cards', async () => {
    const form = await mount();
    await waitUntil(() => form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards');
    const live = await openCheckout({ merchant: 'live' });
    form.endpoint = live.companion_url;
    await swap(form, live.id);
    expect(field(form, 'number').value, 'the live form shows').to.equal('');
    expect([banner(form), !!form.shadowRoot!.querySelector('[part=test-cards]')]).to.deep.equal([false, false]);
  });

  it('<pay-button>: neither its test banner nor its error shows as the new one loads, nor after', async () => {
    // The hosted page cannot be had: the button shows the error.
    const failing = watchFetch((call) => (call.url.endsWith('/hosted') ? Promise.resolve(json(503, { error: { code: 'gateway_unavailable', message: 'down' } })) : undefined));
    const payButton = await mount({}, {}, 'pay-button');
    const error = oneEvent(payButton, 'pay-error');
    button(payButton).click();
    await error;
    failing.restore();
    await payButton.updateComplete;
    expect(message(payButton)).to.equal('Something went wrong. Please try again in a moment.');
    expect(banner(payButton)).to.equal(true);

    // A live session (its companion on its own origin), whose read the test holds.
    const live = await openCheckout({ merchant: 'live' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reads = watchFetch((call, pass) => (readsSession(call, live.id) ? released.then(pass) : undefined));
    try {
      payButton.endpoint = live.companion_url;
      const ready = oneEvent(payButton, 'pay-ready');
      payButton.session = live.id;
      await payButton.updateComplete;
      expect(payButton.phase).to.equal('loading');
      expect(banner(payButton), 'no test banner while the live session loads').to.equal(false);
      expect(message(payButton)).to.equal('');
      release();
      await ready;
      await payButton.updateComplete;
      expect(banner(payButton), 'nor once it shows').to.equal(false);
      expect(button(payButton).textContent).to.match(/^Pay UAH\s100\.50 on the secure payment page$/);
      expect(message(payButton)).to.equal('');
    } finally {
      reads.restore();
    }
  });
});
