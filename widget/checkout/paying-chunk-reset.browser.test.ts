// The merchant's form reset before the paying chunk has come (a shop's "Clear" pressed as the
// form shows, on a slow network): what the customer typed is all there is to reset then, and it
// goes (pay-form.ts, `empty`). This file's page has not loaded that chunk, and holds it back (a
// page loads a module once).
import { expect, fixture, html } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { field, OLENA, payingCame, record, show, type } from '../test/harness.js';
import type { PayForm } from '../pay-form/pay-form.js';

const PAYING = '/widget/checkout/paying.ts';

describe('reset before the paying chunk has come', () => {
  before(() => answerModule(PAYING, 'hold'));
  after(() => answerModule(PAYING, 'serve'));

  it('empties what the customer typed, telling the page, and keeps what is typed after once the chunk comes', async () => {
    const shop = await fixture<HTMLFormElement>(html`<form><input name="note" value="ring twice"><fieldset></fieldset></form>`);
    const form: PayForm = await show({ customer: {} }, {}, 'pay-form', shop.querySelector('fieldset')!);
    await type(field(form, 'number'), '4242424242424242');
    await type(field(form, 'fname'), OLENA.fname);
    const changes = record(form, 'pay-change');
    shop.reset();
    await form.updateComplete;
    expect(form.inputs().map((input) => input.value).join(''), 'the fields').to.equal('');
    expect(form.edited, 'what was typed, kept for formatting').to.deep.equal({});
    expect(changes.map(({ field: name, empty }) => [name, empty])).to.deep.equal([
      ['number', true],
      ['fname', true],
    ]);
    expect(shop.querySelector('input')!.value, 'the merchant’s own field').to.equal('ring twice');

    // Typed anew, then the chunk comes: the new number stays, formatted.
    await type(field(form, 'number'), '5555555555554444');
    await answerModule(PAYING, 'serve');
    await payingCame(form);
    expect(field(form, 'number').value).to.equal('5555 5555 5555 4444');
  });
});
