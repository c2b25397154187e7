// Formatting as the customer types is the paying chunk's (typing.ts, `reformat`), fetched as the
// form shows. On a slow network the customer may type before it has come: this file's page has not
// loaded it, and its one test holds it back while typing (a page loads a module once).
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { answerModule } from '../test/checkout-fixture.js';
import { errorText, field, payingCame, press, record, show, type } from '../test/harness.js';

const PAYING = '/widget/checkout/paying.ts';

describe('typing before the paying chunk has come', () => {
  afterEach(() => answerModule(PAYING, 'serve'));

  it('says no error for what formatting would mend, and formats once it comes, a selection kept', async () => {
    await answerModule(PAYING, 'hold');
    const form = await show();
    const [number, exp, cvv] = (['number', 'exp', 'cvv'] as const).map((name) => field(form, name));

    // Unformatted, "428" reads as month 42 and a full-width "１" as no digit: neither is wrong.
    const changes = record(form, 'pay-change');
    await type(exp!, '428');
    await type(cvv!, '１２３');
    await form.updateComplete;
    expect([exp!.value, cvv!.value]).to.deep.equal(['428', '１２３']);
    expect([errorText(form, 'exp'), errorText(form, 'cvv')], 'no error before formatting').to.deep.equal(['', '']);
    expect(exp!.getAttribute('aria-invalid')).to.equal('false');
    // Nor does the page hear it is: a shop that shows its own errors from `valid` shows none.
    expect(changes.map(({ field, valid, error }) => [field, valid, error])).to.deep.equal([
      ['exp', true, undefined],
      ['exp', true, undefined],
      ['exp', true, undefined],
      ['cvv', true, undefined],
      ['cvv', true, undefined],
      ['cvv', true, undefined],
    ]);

    // A number typed, its last four selected to type over as the chunk comes.
    await type(number!, '4242424242424241');
    for (let key = 0; key < 4; key += 1) await sendKeys({ press: 'Shift+ArrowLeft' });
    // The brand found re-judges the security code: still no error before formatting.
    await form.updateComplete;
    expect(errorText(form, 'cvv'), 'the CVV, judged again for the brand').to.equal('');
    expect([number!.selectionStart, number!.selectionEnd]).to.deep.equal([12, 16]);

    await answerModule(PAYING, 'serve');
    await payingCame(form);
    expect([exp!.value, cvv!.value], 'formatted once it came').to.deep.equal(['04/28', '123']);
    // Formatted, the selection the customer made meanwhile kept on the same digits, so what they type replaces it.
    expect([number!.value, number!.selectionStart, number!.selectionEnd]).to.deep.equal(['4242 4242 4242 4241', 15, 19]);
    await sendKeys({ type: '4242' });
    await form.updateComplete;
    expect(number!.value).to.equal('4242 4242 4242 4242');
    expect(errorText(form, 'number')).to.equal('');

    // From now on a field that cannot become valid says so as it is typed: a month gone by.
    exp!.focus();
    exp!.select();
    await press('Backspace');
    await type(exp!, '0119');
    await form.updateComplete;
    expect(exp!.value).to.equal('01/19');
    expect(errorText(form, 'exp')).to.not.equal('');
  });
});
