/**
 * `<pay-form>` and `<pay-button>` inside a merchant's own `<form>` (a checkout page with the
 * shop's fields around the card): form-associated, they are disabled with a `<fieldset disabled>`
 * around them, emptied by the form's reset, and put nothing of the card in the form's data.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayEventDetails } from '../events.js';
import type { PayForm } from './pay-form.js';
import { autofill, button, card, field, message, mount, OLENA, part, press, record, type, watchFetch } from '../test/harness.js';

const pause = (ms: number): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, ms));

/** The merchant's form: a field of its own, then a fieldset holding the element. */
async function shopForm(): Promise<{ shop: HTMLFormElement; fieldset: HTMLFieldSetElement }> {
  const shop = await fixture<HTMLFormElement>(html`<form><input name="note" value="ring twice"><fieldset></fieldset><button>Place order</button></form>`);
  return { shop, fieldset: shop.querySelector('fieldset')! };
}

/** The element's fields and buttons, each as disabled or not. */
const controls = (element: Element): boolean[] => [...element.shadowRoot!.querySelectorAll<HTMLInputElement>('input,button')].map((control) => control.disabled);

describe('<pay-form> in a merchant’s form', () => {
  it('is disabled with a disabled fieldset around it, pays nothing meanwhile, and is enabled with it', async () => {
    const { fieldset } = await shopForm();
    fieldset.disabled = true;
    const form = await mount({}, {}, 'pay-form', fieldset);
    await form.updateComplete;
    expect(controls(form).length, 'fields and a button').to.be.above(3);
    expect(controls(form), 'all disabled').to.deep.equal(controls(form).map(() => true));
    // A page's own "Place order" calling pay() meanwhile pays nothing either.
    const calls = watchFetch();
    const submits = record(form, 'pay-submit');
    try {
      autofill(form, card('4242424242424242'));
      await form.pay();
      button(form).click();
      await pause(300);
      expect(calls.filter(({ url }) => url.endsWith('/pay')), 'paid').to.deep.equal([]);
      expect(submits).to.deep.equal([]);
      expect(form.phase).to.equal('ready');
    } finally {
      calls.restore();
    }
    fieldset.disabled = false;
    await form.updateComplete;
    expect(controls(form), 'all enabled again').to.deep.equal(controls(form).map(() => false));
    const paid = oneEvent(form, 'pay-success');
    button(form).click();
    expect(((await paid) as CustomEvent<PayEventDetails['pay-success']>).detail.orderId).to.be.a('string');
  });

  it('is disabled by its own disabled attribute', async () => {
    const form = await mount({}, { disabled: '' });
    await form.updateComplete;
    expect(controls(form), 'all disabled').to.deep.equal(controls(form).map(() => true));
    form.removeAttribute('disabled');
    await form.updateComplete;
    expect(controls(form), 'all enabled').to.deep.equal(controls(form).map(() => false));
  });

  it('is disabled by its disabled property, as Angular’s [disabled] or a script sets it', async () => {
    const form = await mount({});
    form.disabled = true;
    await form.updateComplete;
    expect(form.matches(':disabled')).to.equal(true);
    expect(controls(form), 'all disabled').to.deep.equal(controls(form).map(() => true));
    form.disabled = false;
    await form.updateComplete;
    expect(controls(form), 'all enabled').to.deep.equal(controls(form).map(() => false));
  });

  it('shows as a fresh form once the merchant’s form is reset, telling the page each field emptied', async () => {
    const { shop, fieldset } = await shopForm();
    const form: PayForm = await mount({ customer: {} }, {}, 'pay-form', fieldset);
    await type(field(form, 'number'), '4242424242424242');
    autofill(form, { exp: '12/40', cvv: '12', ...OLENA });
    field(form, 'cvv').blur();
    await form.updateComplete;
    expect(form.brand?.id).to.equal('visa');
    const changes = record(form, 'pay-change');
    const brands = record(form, 'pay-brand-change');
    shop.reset();
    await form.updateComplete;
    expect(form.inputs().map((input) => [input.name, input.value])).to.deep.equal(form.inputs().map((input) => [input.name, '']));
    expect([form.brand, form.invalid, form.complete, form.errors], 'a fresh form').to.deep.equal([undefined, false, false, {}]);
    expect(brands).to.deep.equal([{}]);
    expect(changes.map(({ field: name, empty }) => [name, empty])).to.deep.equal(['number', 'exp', 'cvv', 'fname', 'lname', 'email', 'phone'].map((name) => [name, true]));
    // The merchant's own field is reset as ever.
    expect(shop.querySelector('input')!.value).to.equal('ring twice');
  });

  it('puts nothing of the card in the form’s data', async () => {
    const { shop, fieldset } = await shopForm();
    const form = await mount({}, {}, 'pay-form', fieldset);
    autofill(form, card('4242424242424242'));
    expect([...new FormData(shop)]).to.deep.equal([['note', 'ring twice']]);
    expect([...shop.elements].includes(form), 'one of its elements').to.equal(true);
  });

  it('leaves Enter in the merchant’s own field to submit the merchant’s form, not to pay', async () => {
    const { shop, fieldset } = await shopForm();
    const form = await mount({}, {}, 'pay-form', fieldset);
    autofill(form, card('4242424242424242'));
    const submits = record(form, 'pay-submit');
    const submitted = new Promise<SubmitEvent>((resolve) => shop.addEventListener('submit', (event) => (event.preventDefault(), resolve(event as SubmitEvent)), { once: true }));
    shop.querySelector('input')!.focus();
    await press('Enter');
    await submitted;
    expect(submits).to.deep.equal([]);
    expect(form.phase).to.equal('ready');
  });
});

describe('<pay-button> in a merchant’s form', () => {
  it('is disabled with a disabled fieldset around it, and enabled with it', async () => {
    const { fieldset } = await shopForm();
    fieldset.disabled = true;
    const payButton = await mount({}, {}, 'pay-button', fieldset);
    await payButton.updateComplete;
    expect(controls(payButton)).to.deep.equal([true]);
    const redirects = record(payButton, 'pay-redirect');
    await payButton.pay();
    expect(redirects).to.deep.equal([]);
    fieldset.disabled = false;
    await payButton.updateComplete;
    expect(controls(payButton)).to.deep.equal([false]);
  });
});

describe('<pay-form> reset while it holds a card out of its fields', () => {
  it('puts back no card the reset emptied: not through the hosted button and back, nor into another session’s form', async () => {
    const { shop, fieldset } = await shopForm();
    const form: PayForm = await mount({}, {}, 'pay-form', fieldset);
    autofill(form, { number: '4242424242424242', exp: '12/40', cvv: '123' });
    form.mode = 'hosted';
    await form.updateComplete;
    shop.reset();
    form.mode = 'direct';
    await form.updateComplete;
    await pause(100);
    expect(form.inputs().map((input) => input.value), 'after the hosted button').to.deep.equal(['', '', '']);
    autofill(form, { number: '4242424242424242', exp: '12/40' });
    const ready = oneEvent(form, 'pay-ready');
    form.session = (await mount()).session;
    await form.updateComplete;
    shop.reset();
    await ready;
    await pause(100);
    expect(form.inputs().map((input) => input.value), 'in the next session').to.deep.equal(['', '', '']);
  });

  it('shows no card nor brand once a payment confirmed unpaid gives its fields back, reset meanwhile', async () => {
    const { shop, fieldset } = await shopForm();
    const form: PayForm = await mount({}, {}, 'pay-form', fieldset);
    form.pollInterval = 50;
    // The pay request is lost on its way, and so is the first read of the session after it: the
    // form confirms, its fields gone, and finds the session open.
    let views = 0;
    const calls = watchFetch((call) => (call.url.endsWith('/pay') || (call.method === 'GET' && views++ === 0) ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    try {
      autofill(form, card('4242424242424242'));
      button(form).click();
      await waitUntil(() => !form.renderRoot.querySelector('#number'), 'the fields did not give way');
      const brands = record(form, 'pay-brand-change');
      shop.reset();
      await waitUntil(() => form.renderRoot.querySelector('#number'), 'the form did not come back');
      await form.updateComplete;
      expect(message(form)).to.equal('No payment was taken. You can pay now.');
      expect(form.inputs().map((input) => input.value), 'no card put back').to.deep.equal(['', '', '']);
      expect([form.brand, form.errors], 'no brand kept').to.deep.equal([undefined, {}]);
      expect(part(form, '.control [part=icon]').textContent, 'no brand shown').to.equal('');
      expect(brands).to.deep.equal([{}]);
    } finally {
      calls.restore();
    }
  });
});
