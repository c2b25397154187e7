import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { autofill, button, errorText, field, focused, mount, part, press, record, type, withCaret, yearAhead } from '../test/harness.js';

/** Types "4242 4242" and steps the caret back to the start of the second group. */
async function caretBeforeSecondGroup(form: Element): Promise<HTMLInputElement> {
  const number = field(form, 'number');
  await type(number, '42424242');
  for (let i = 0; i < 4; i++) await press('ArrowLeft');
  expect(withCaret(number)).to.equal('4242 |4242');
  return number;
}

const CARD_NUMBER = 'This looks like a card number: enter it only in the card number field.';

/** ASCII digits written in Arabic-Indic (U+0660…) or Extended Arabic-Indic, Persian, ones (U+06F0…). */
const ARABIC = 0x660;
const PERSIAN = 0x6f0;
const written = (digits: string, zero: number): string => digits.replace(/\d/g, (digit) => String.fromCharCode(zero + Number(digit)));

describe('<pay-form> card entry', () => {
  describe('formatting while typing', () => {
    it('groups a Visa number 4-4-4-4 and shows its mark', async () => {
      const form = await mount();
      const brands = record(form, 'pay-brand-change');
      await type(field(form, 'number'), '4242424242424242');
      expect(withCaret(field(form, 'number'))).to.equal('4242 4242 4242 4242|');
      expect(part(form, '[part=icon]').getAttribute('aria-label')).to.equal('Visa');
      expect(brands).to.deep.equal([{ brand: 'visa' }]);
    });

    it('groups Amex 4-6-5, stops at 15 digits, and tells when the brand turns known', async () => {
      const form = await mount();
      const brands = record(form, 'pay-brand-change');
      await type(field(form, 'number'), '3');
      expect(brands, 'a lone 3 is ambiguous').to.deep.equal([]);
      await type(field(form, 'number'), '78282246310005999');
      expect(field(form, 'number').value).to.equal('3782 822463 10005');
      expect(brands).to.deep.equal([{ brand: 'amex' }]);
      expect(part(form, '[part=hint]#cvv-hint').textContent).to.equal('4 digits on the front');
    });

    it('recognises Mastercard 2-series, Mir and Prostir from their prefixes', async () => {
      const form = await mount();
      const number = field(form, 'number');
      const brands = record(form, 'pay-brand-change');
      await type(number, '2221');
      await press('Control+A');
      await type(number, '2200');
      await press('Control+A');
      await type(number, '9804');
      expect(brands.map((detail) => detail.brand), '9 is Prostir alone').to.deep.equal(['mastercard', undefined, 'mir', 'prostir']);
    });

    it('keeps the caret after a digit typed in the middle', async () => {
      const number = await caretBeforeSecondGroup(await mount());
      await sendKeys({ type: '1' });
      expect(withCaret(number)).to.equal('4242 1|424 2');
    });

    it('deletes the digit before a gap on Backspace and after it on Delete', async () => {
      const number = await caretBeforeSecondGroup(await mount());
      await press('Backspace');
      expect(withCaret(number)).to.equal('424|4 242');
      await press('End');
      await press('Backspace');
      expect(withCaret(number)).to.equal('4244 24|');
      await press('Home');
      for (let i = 0; i < 4; i++) await press('ArrowRight');
      await press('Delete');
      expect(withCaret(number)).to.equal('4244| 4');
    });

    it('pads the expiry month, adds the slash and accepts a four-digit year', async () => {
      const form = await mount();
      const exp = field(form, 'exp');
      await type(exp, '2');
      expect(withCaret(exp)).to.equal('02/|');
      await press('Backspace');
      expect(exp.value, 'backspace takes the slash, not the month').to.equal('02');
      await press('Control+A');
      await sendKeys({ type: `1220${yearAhead(3)}` });
      expect(withCaret(exp)).to.equal(`12/${yearAhead(3)}|`);
    });

    it('takes the month as typed before a slash or a space, and keeps the year put as the slash is deleted', async () => {
      const form = await mount();
      const exp = field(form, 'exp');
      // "13" shows as "01/3"; the slash typed after it says 13 was meant: no month, not January 2032.
      await type(exp, '13/27');
      expect(exp.value).to.equal('13/27');
      expect(errorText(form, 'exp')).to.not.equal('');
      await press('Control+A');
      await sendKeys({ type: `1 ${yearAhead(2)}` });
      expect(exp.value).to.equal(`01/${yearAhead(2)}`);
      // Complete, it sent focus on to the code.
      exp.focus();
      await press('Control+A');
      await sendKeys({ type: `12${yearAhead(2)}` });
      exp.focus();
      exp.setSelectionRange(3, 3);
      await press('Backspace');
      expect(withCaret(exp)).to.equal(`1|/${yearAhead(2)}`);
    });

    it('takes only digits, and no more security code digits than the brand prints', async () => {
      const form = await mount();
      await type(field(form, 'number'), '4242424242424242');
      await type(field(form, 'cvv'), '1a2b34');
      expect(field(form, 'cvv').value).to.equal('123');
    });

    it('takes the full-width digits a CJK input method types as digits', async () => {
      const form = await mount();
      await type(field(form, 'number'), '５５５５５５５５５５５５４４４４');
      expect([field(form, 'number').value, focused(form)]).to.deep.equal(['5555 5555 5555 4444', 'exp']);
      await sendKeys({ type: `１２${[...yearAhead(2)].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join('')}` });
      expect(field(form, 'exp').value).to.equal(`12/${yearAhead(2)}`);
      await sendKeys({ type: '１２３' });
      expect(field(form, 'cvv').value).to.equal('123');
    });

    it('takes Arabic-Indic and Persian digits as 0–9, and pays with them', async () => {
      const form = await mount({ customer: { fname: 'Layla', lname: 'Haddad', email: 'layla@example.com' } });
      await type(field(form, 'number'), written('5454545454545454', ARABIC));
      expect([withCaret(field(form, 'number')), focused(form)]).to.deep.equal(['5454 5454 5454 5454|', 'exp']);
      await sendKeys({ type: written(`12${yearAhead(2)}`, PERSIAN) });
      expect([field(form, 'exp').value, focused(form)]).to.deep.equal([`12/${yearAhead(2)}`, 'cvv']);
      await sendKeys({ type: written('123', ARABIC) });
      // The code is the last card field: focus stays, and a digit too many goes nowhere else.
      await sendKeys({ type: written('4', ARABIC) });
      expect([field(form, 'cvv').value, focused(form)]).to.deep.equal(['123', 'cvv']);
      field(form, 'phone').focus();
      await sendKeys({ type: `+${written('380 67 123 4567', PERSIAN)}` });
      expect(field(form, 'phone').value).to.equal('+380 67 123 4567');
      const paid = oneEvent(form, 'pay-success');
      button(form).click();
      await paid;
    });
  });

  describe('paste', () => {
    it('strips spaces, dashes and no-break spaces, then moves on when the number is complete', async () => {
      const form = await mount();
      await navigator.clipboard.writeText(' 5454-5454\u00a05454 5454 ');
      field(form, 'number').focus();
      await press('Control+V');
      expect(withCaret(field(form, 'number'))).to.equal('5454 5454 5454 5454|');
      expect(focused(form)).to.equal('exp');
    });

    it('stays in the field after a partial paste', async () => {
      const form = await mount();
      await navigator.clipboard.writeText('5454 54');
      field(form, 'number').focus();
      await press('Control+V');
      expect(field(form, 'number').value).to.equal('5454 54');
      expect(focused(form)).to.equal('number');
    });

    it('takes a number pasted in Arabic-Indic digits', async () => {
      const form = await mount();
      await navigator.clipboard.writeText(written('3782 822463 10005', ARABIC));
      field(form, 'number').focus();
      await press('Control+V');
      expect(withCaret(field(form, 'number'))).to.equal('3782 822463 10005|');
      expect(focused(form)).to.equal('exp');
    });

    it('writes a Persian digit typed in the middle of a phone number as 0–9 and keeps the caret after it', async () => {
      const form = await mount({ customer: {} });
      const phone = field(form, 'phone');
      await type(phone, '+38067 1234567');
      for (let i = 0; i < 8; i++) await press('ArrowLeft');
      await sendKeys({ type: written('9', PERSIAN) });
      expect(withCaret(phone)).to.equal('+380679| 1234567');
    });

    it('puts a pasted group in the middle of a number and keeps the caret after it', async () => {
      const number = await caretBeforeSecondGroup(await mount());
      await navigator.clipboard.writeText('1111-');
      await press('Control+V');
      expect(withCaret(number)).to.equal('4242 1111 |4242');
    });
  });

  describe('focus', () => {
    it('moves on only from a valid field at its full length', async () => {
      const form = await mount({ customer: {} });
      await type(field(form, 'number'), '4242424242424242');
      expect(focused(form), 'a Visa may still have 19 digits').to.equal('number');
      await press('Control+A');
      await sendKeys({ type: '5555555555554444' });
      expect(focused(form)).to.equal('exp');
      await sendKeys({ type: `12${yearAhead(2)}` });
      expect(focused(form)).to.equal('cvv');
      // The code is the last card field: the first name takes any text, a digit too many included.
      await sendKeys({ type: '1234' });
      expect([field(form, 'cvv').value, focused(form), field(form, 'fname').value]).to.deep.equal(['123', 'cvv', '']);
    });

    it('moves focus on at every Tab, a Tab right after focus moved on by itself included (WCAG 2.1.1)', async () => {
      const form = await mount({ customer: {} });
      await type(field(form, 'number'), '5555555555554444');
      expect(focused(form)).to.equal('exp');
      await press('Tab');
      expect(focused(form), 'the Tab that followed the move from the number').to.equal('cvv');
      await press('Shift+Tab');
      await sendKeys({ type: `12${yearAhead(2)}` });
      expect(focused(form)).to.equal('cvv');
      await press('Tab');
      expect(focused(form), 'the Tab that followed the move from the expiry').to.equal('fname');
    });

    it('stays while the expiry month is retyped in front of its year, and takes the month typed', async () => {
      const form = await mount({ customer: {} });
      const exp = field(form, 'exp');
      await type(exp, `12${yearAhead(2)}`);
      expect(focused(form)).to.equal('cvv');
      exp.focus();
      exp.setSelectionRange(0, 2);
      await sendKeys({ type: '1' });
      expect([withCaret(exp), focused(form)]).to.deep.equal([`1|/${yearAhead(2)}`, 'exp']);
      await sendKeys({ type: '1' });
      expect([exp.value, focused(form)]).to.deep.equal([`11/${yearAhead(2)}`, 'exp']);
      expect(errorText(form, 'exp')).to.equal('');
    });

    it('stays on a full number that fails the Luhn check', async () => {
      const form = await mount();
      await type(field(form, 'number'), '5555555555554445');
      expect(focused(form)).to.equal('number');
      expect(errorText(form, 'number')).to.equal('The card number is invalid.');
    });
  });

  describe('error timing', () => {
    it('shows "incomplete" when the customer leaves the field, not while typing', async () => {
      const form = await mount();
      const number = field(form, 'number');
      await type(number, '4242');
      expect(errorText(form, 'number')).to.equal('');
      expect(number.getAttribute('aria-invalid')).to.equal('false');
      await press('Tab');
      expect(errorText(form, 'number')).to.equal('The card number is incomplete.');
      expect(number.getAttribute('aria-invalid')).to.equal('true');
      await form.updateComplete;
      expect(form.hasAttribute('invalid')).to.equal(true);
      await type(number, '4');
      expect(errorText(form, 'number'), 'typing on clears it while it can still become valid').to.equal('');
    });

    it('waits for blur on a 16-digit Visa failing Luhn, as 19 digits may follow', async () => {
      const form = await mount();
      await type(field(form, 'number'), '4242424242424241');
      expect(errorText(form, 'number')).to.equal('');
      await press('Tab');
      expect(errorText(form, 'number')).to.equal('The card number is invalid.');
    });

    it('says at once that a number no scheme issues is not accepted, as well as a brand the merchant refuses', async () => {
      // A merchant whose companion accepts Visa and Mastercard only.
      const form = await mount({ merchant: 'visa-mastercard' });
      await type(field(form, 'number'), '7');
      expect(errorText(form, 'number')).to.equal('This card type is not accepted.');
      await press('Backspace');
      await sendKeys({ type: '37' });
      expect(errorText(form, 'number')).to.equal('This card type is not accepted.');
      await press('Control+A');
      await sendKeys({ type: '5454' });
      expect(errorText(form, 'number'), 'Mastercard is taken').to.equal('');
    });

    it('does not call an untouched field required when the customer tabs through it', async () => {
      const form = await mount();
      field(form, 'number').focus();
      await press('Tab');
      await press('Tab');
      expect(errorText(form, 'number')).to.equal('');
      expect(errorText(form, 'exp')).to.equal('');
    });

    it('calls a field emptied by the customer required when they leave it', async () => {
      const form = await mount();
      await type(field(form, 'cvv'), '1');
      await press('Backspace');
      await press('Tab');
      expect(errorText(form, 'cvv')).to.equal('This field is required.');
    });

    it('marks an expiry in the past at once, unless it may still become a four-digit year', async () => {
      const form = await mount();
      const exp = field(form, 'exp');
      await type(exp, '0119');
      expect(errorText(form, 'exp')).to.equal('This card has expired.');
      await press('Control+A');
      await sendKeys({ type: '0120' });
      expect(errorText(form, 'exp'), '01/20 may become 01/2031').to.equal('');
      await press('Tab');
      expect(errorText(form, 'exp')).to.equal('This card has expired.');
      await type(exp, '');
      await press('Control+A');
      await sendKeys({ type: `01${yearAhead(20)}` });
      expect(errorText(form, 'exp')).to.equal('The expiry date is too far ahead.');
      await press('Control+A');
      await sendKeys({ type: '13' });
      expect(exp.value, '13 can only be January and a year starting with 3').to.equal('01/3');
      await press('Control+A');
      await sendKeys({ type: '00' });
      expect(errorText(form, 'exp')).to.equal('The expiry date is invalid.');
    });

    it('words the security code error for Amex, and re-checks the code when the brand changes', async () => {
      const form = await mount();
      await type(field(form, 'cvv'), '1234');
      await type(field(form, 'number'), '4242');
      expect(errorText(form, 'cvv'), 'Visa codes have 3 digits').to.equal('Enter the 3 digits on the back of the card.');
      await press('Control+A');
      await sendKeys({ type: '3782' });
      expect(errorText(form, 'cvv')).to.equal('');
      await type(field(form, 'cvv'), '');
      await press('Backspace');
      await press('Tab');
      expect(errorText(form, 'cvv')).to.equal('Enter the 4 digits on the front of the card.');
      expect(part(form, '#cvv').getAttribute('aria-describedby')).to.equal('cvv-error cvv-hint');
    });

    it('tells the page about every change', async () => {
      const form = await mount();
      const changes = record(form, 'pay-change');
      await type(field(form, 'number'), '55');
      await press('Tab');
      expect(changes).to.deep.equal([
        { field: 'number', empty: false, complete: false, valid: true, brand: undefined, error: undefined },
        { field: 'number', empty: false, complete: false, valid: true, brand: 'mastercard', error: undefined },
        // Left incomplete: the field shows it now, and the page hears of it.
        { field: 'number', empty: false, complete: false, valid: true, brand: 'mastercard', error: 'incomplete' },
      ]);
      await type(field(form, 'number'), '55555555554445');
      expect(changes.at(-1)).to.deep.equal({ field: 'number', empty: false, complete: false, valid: false, brand: 'mastercard', error: 'invalid' });
    });

    it('tells the page when a new brand makes the security code typed wrong, or right again', async () => {
      const form = await mount();
      const changes = record(form, 'pay-change');
      await type(field(form, 'number'), '378282246310005');
      await type(field(form, 'cvv'), '1234');
      expect(changes.at(-1)).to.deep.equal({ field: 'cvv', empty: false, complete: true, valid: true, brand: 'amex', error: undefined });
      // The number typed over as a Visa's: four digits are no Visa's code, and the page is told so at once.
      field(form, 'number').select();
      await type(field(form, 'number'), '4242424242424242');
      const code = () => changes.filter((change) => change.field === 'cvv').at(-1);
      expect(code()).to.deep.equal({ field: 'cvv', empty: false, complete: false, valid: false, brand: 'visa', error: 'invalid' });
      expect(errorText(form, 'cvv')).to.equal('Enter the 3 digits on the back of the card.');
      field(form, 'number').select();
      await type(field(form, 'number'), '378282246310005');
      expect(code()).to.deep.equal({ field: 'cvv', empty: false, complete: true, valid: true, brand: 'amex', error: undefined });
    });

    it('tells the page when leaving a field changes the error it shows, and only then', async () => {
      const form = await mount();
      const changes = record(form, 'pay-change');
      // Untouched fields tabbed through show nothing, and say nothing.
      field(form, 'number').focus();
      await press('Tab');
      await press('Tab');
      expect(changes).to.deep.equal([]);
      await type(field(form, 'cvv'), '1');
      await press('Backspace');
      await press('Tab');
      expect(errorText(form, 'cvv')).to.equal('This field is required.');
      expect(form.hasAttribute('invalid')).to.equal(true);
      expect(changes.at(-1)).to.deep.equal({ field: 'cvv', empty: true, complete: false, valid: true, brand: undefined, error: 'empty' });
      // Left again as it was: no news.
      const told = changes.length;
      field(form, 'cvv').focus();
      await press('Tab');
      expect(changes.length).to.equal(told);
      // Typed whole and left: the error it showed while typing is the one it shows, so nothing more either.
      await type(field(form, 'cvv'), '123');
      expect(changes.at(-1)).to.deep.equal({ field: 'cvv', empty: false, complete: true, valid: true, brand: undefined, error: undefined });
      expect(form.hasAttribute('invalid')).to.equal(false);
      await press('Tab');
      expect(changes.length).to.equal(told + 3);
    });
  });

  describe('customer fields', () => {
    it('asks only for what the merchant did not prefill, with the right autocomplete tokens', async () => {
      const form = await mount({ customer: { fname: 'Olena', email: 'olena@example.com' } });
      const names = [...form.shadowRoot!.querySelectorAll('input')].map((input) => [input.name, input.autocomplete, input.type]);
      expect(names).to.deep.equal([
        ['number', 'cc-number', 'text'],
        ['exp', 'cc-exp', 'text'],
        ['cvv', 'cc-csc', 'text'],
        ['lname', 'family-name', 'text'],
        ['phone', 'tel', 'tel'],
      ]);
    });

    it('checks email and phone when the customer leaves them', async () => {
      const form = await mount({ customer: {} });
      await type(field(form, 'email'), 'olena@example');
      await press('Tab');
      expect(errorText(form, 'email')).to.equal('Enter a valid email address.');
      await type(field(form, 'phone'), '+380 67');
      await press('Tab');
      expect(errorText(form, 'phone')).to.equal('Enter a phone number with its country code.');
      await type(field(form, 'phone'), ' 123 4567');
      await press('Tab');
      expect(errorText(form, 'phone')).to.equal('');
    });

    it('says at once that a card number does not belong in a name or the e-mail address, whatever separates its digits', async () => {
      const form = await mount({ customer: {} });
      const changes = record(form, 'pay-change');
      const fname = field(form, 'fname');
      await type(fname, 'Olena 4111.1111.1111.111');
      // From 14 digits on the card-number detector loads (once), and the field is judged again as it is.
      await waitUntil(() => changes.at(-1)?.complete, 'the name was not judged once the detector loaded');
      expect(errorText(form, 'fname')).to.equal('');
      await type(fname, '1');
      expect(errorText(form, 'fname')).to.equal(CARD_NUMBER);
      expect(fname.getAttribute('aria-invalid')).to.equal('true');
      expect(changes.at(-1)).to.include({ field: 'fname', valid: false, error: 'card_number' });
      await type(field(form, 'email'), '４１１１\u2009１１１１\u2009１１１１\u2009１１１１@example.com');
      expect(errorText(form, 'email')).to.equal(CARD_NUMBER);
      await type(field(form, 'lname'), 'Koval, Apt 12, 2026-11-22, +380 44 123 4567');
      await press('Tab');
      expect(errorText(form, 'lname')).to.equal('');
      // A hundred keys typed one by one: a few seconds alone, past Mocha's 15 s beside a busy run's other suites.
    }).timeout(30_000);
  });

  describe('autofill', () => {
    it('takes a browser autofill of every field at once, formats it, and leaves focus alone', async () => {
      const form = await mount({ customer: {} });
      field(form, 'fname').focus();
      autofill(form, { number: '4111111111111111', exp: `12/20${yearAhead(4)}`, cvv: '737', fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' });
      expect(field(form, 'number').value).to.equal('4111 1111 1111 1111');
      expect(field(form, 'exp').value).to.equal(`12/${yearAhead(4)}`);
      expect(focused(form)).to.equal('fname');
      await form.updateComplete;
      expect(form.hasAttribute('complete')).to.equal(true);
      expect(form.hasAttribute('invalid')).to.equal(false);
    });

    it('marks the card inputs for autofill and for numeric keyboards, without autocorrect', async () => {
      const form = await mount();
      for (const name of ['number', 'exp', 'cvv'] as const) {
        const input = field(form, name);
        expect(input.inputMode, name).to.equal('numeric');
        expect(input.getAttribute('autocorrect'), name).to.equal('off');
        expect(input.spellcheck, name).to.equal(false);
        expect(input.getAttribute('aria-required'), name).to.equal('true');
      }
    });
  });

  describe('mode switched after the form showed', () => {
    it('keeps the card typed through the hosted button and back, telling the page each field again', async () => {
      const form = await mount();
      autofill(form, { number: '4242424242424242', exp: `12/${yearAhead(3)}`, cvv: '123' });
      await form.updateComplete;
      const typed = form.inputs().map((input) => [input.name, input.value]);
      expect(form.complete, 'complete before').to.equal(true);
      const changes = record(form, 'pay-change');
      const brands = record(form, 'pay-brand-change');
      form.mode = 'hosted';
      await form.updateComplete;
      expect(form.shadowRoot!.querySelector('#number'), 'the hosted button alone').to.equal(null);
      form.mode = 'direct';
      await waitUntil(() => changes.length === 3, `told: ${JSON.stringify(changes)}`);
      expect(form.inputs().map((input) => [input.name, input.value]), 'as typed').to.deep.equal(typed);
      expect(changes.map(({ field: name, complete, error }) => [name, complete, error])).to.deep.equal([
        ['number', true, undefined],
        ['exp', true, undefined],
        ['cvv', true, undefined],
      ]);
      expect(brands, 'the same brand').to.deep.equal([]);
      await form.updateComplete;
      expect([form.complete, form.brand?.id]).to.deep.equal([true, 'visa']);
    });

    it('puts no card of the last session into the form of another one', async () => {
      const form = await mount();
      autofill(form, { number: '4242424242424242' });
      form.mode = 'hosted';
      await form.updateComplete;
      const ready = oneEvent(form, 'pay-ready');
      form.session = (await mount()).session;
      await ready;
      form.mode = 'direct';
      await form.updateComplete;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(field(form, 'number').value).to.equal('');
    });
  });
});
