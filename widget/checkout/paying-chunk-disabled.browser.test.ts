// Disabled as a form control (a `<fieldset disabled>` around it, its own `disabled`), `<pay-form>`
// takes nothing from the first render, not only once the paying chunk has come
// (checkout-element.ts, `updated`): this file's page has not loaded that chunk, and holds it back
// (a page loads a module once).
import { expect, fixture, html } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { field, show, type } from '../test/harness.js';

const PAYING = '/widget/checkout/paying.ts';

/** The element's fields and buttons, each as disabled or not. */
const controls = (element: Element): boolean[] => [...element.shadowRoot!.querySelectorAll<HTMLInputElement>('input,button')].map((control) => control.disabled);

describe('disabled before the paying chunk has come', () => {
  before(() => answerModule(PAYING, 'hold'));
  after(() => answerModule(PAYING, 'serve'));

  it('takes no typing inside a disabled fieldset, and takes it once the fieldset is enabled', async () => {
    const fieldset = await fixture<HTMLFieldSetElement>(html`<fieldset disabled></fieldset>`);
    const form = await show({}, {}, 'pay-form', fieldset);
    expect(controls(form).length, 'fields and a button').to.be.above(3);
    expect(controls(form), 'all disabled').to.deep.equal(controls(form).map(() => true));
    await type(field(form, 'number'), '4242');
    expect(field(form, 'number').value).to.equal('');
    fieldset.disabled = false;
    await form.updateComplete;
    expect(controls(form), 'all enabled').to.deep.equal(controls(form).map(() => false));
    await type(field(form, 'number'), '4242');
    expect(field(form, 'number').value).to.equal('4242');
  });

  it('follows its own disabled property, both ways', async () => {
    const form = await show();
    form.disabled = true;
    await form.updateComplete;
    expect(controls(form), 'all disabled').to.deep.equal(controls(form).map(() => true));
    await type(field(form, 'number'), '4242');
    expect(field(form, 'number').value).to.equal('');
    form.disabled = false;
    await form.updateComplete;
    expect(controls(form), 'all enabled').to.deep.equal(controls(form).map(() => false));
  });
});
