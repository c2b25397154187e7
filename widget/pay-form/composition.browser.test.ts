/**
 * Typing through an input method's composition: a CJK input method, or a phone keyboard's
 * predictive text (Gboard, Samsung), shows what it composes in the field and replaces it at each
 * update, then commits it. Chromium's own composition cannot be driven from a test page, so
 * `compose` plays its events as Chromium fires them — compositionstart, an `input` of
 * `insertCompositionText` (isComposing) for each update, the last one included, then
 * compositionend — and replaces the text being composed as an input method does. A page that
 * rewrites the field meanwhile ends the composition, as it does in Chromium: the next update is
 * typed at the caret, after what is there.
 */
import { expect } from '@open-wc/testing';
import { errorText, field, focused, mount, record, yearAhead } from '../test/harness.js';

/** Full-width digits, as a CJK input method types them. */
const fullWidth = (digits: string): string => digits.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));

/**
 * Composes `updates` (each what the input method shows so far) in `input`, where its caret is, and
 * commits the last: the field's value after each update, as the form left it.
 */
function compose(input: HTMLInputElement, updates: readonly string[]): string[] {
  input.focus();
  const event = { bubbles: true, composed: true };
  input.dispatchEvent(new CompositionEvent('compositionstart', { ...event, data: '' }));
  let start = input.selectionStart!;
  let composed = '';
  let expected = input.value;
  const seen: string[] = [];
  for (const text of updates) {
    // Rewritten by the page: the composition it held is gone, and the input method types on at the caret.
    if (input.value !== expected) [start, composed] = [input.selectionStart!, ''];
    const { value } = input;
    input.value = value.slice(0, start) + text + value.slice(start + composed.length);
    input.setSelectionRange(start + text.length, start + text.length);
    composed = text;
    expected = input.value;
    input.dispatchEvent(new InputEvent('input', { ...event, data: text, inputType: 'insertCompositionText', isComposing: true }));
    seen.push(input.value);
  }
  input.dispatchEvent(new CompositionEvent('compositionend', { ...event, data: updates.at(-1) }));
  return seen;
}

describe('<pay-form> typing through an input method', () => {
  it('takes full-width card digits composed one by one as 0–9, formatted once committed', async () => {
    const form = await mount();
    const number = field(form, 'number');
    const updates = ['４', '４２', '４２４', '４２４２'];
    expect(compose(number, updates), 'not rewritten while composed').to.deep.equal(updates);
    expect(number.value).to.equal('4242');
    expect(focused(form)).to.equal('number');
  });

  it('leaves what is being composed alone, and moves on from a number committed whole', async () => {
    const form = await mount();
    const number = field(form, 'number');
    const changes = record(form, 'pay-change');
    const digits = '5555555555554444';
    const updates = [...digits].map((_, at) => fullWidth(digits.slice(0, at + 1)));
    compose(number, updates.slice(0, 8));
    expect(number.value).to.equal('5555 5555');
    compose(number, updates.slice(8).map((text) => text.slice(8)));
    expect([number.value, focused(form)]).to.deep.equal(['5555 5555 5555 4444', 'exp']);
    // Heard once a composition: once it is committed.
    expect(changes.map(({ field: name, complete }) => [name, complete])).to.deep.equal([
      ['number', false],
      ['number', true],
    ]);
  });

  it('composes the expiry, the security code and the phone as they were typed, in 0–9', async () => {
    const form = await mount({ customer: {} });
    const year = yearAhead(3);
    compose(field(form, 'exp'), ['1', '12', `12${year[0]}`, `12${year}`]);
    expect([field(form, 'exp').value, focused(form)]).to.deep.equal([`12/${year}`, 'cvv']);
    compose(field(form, 'cvv'), ['１', '１２', '１２３']);
    expect(field(form, 'cvv').value).to.equal('123');
    const phone = '＋３８０５０１２３４５６７';
    compose(field(form, 'phone'), [...phone].map((_, at) => phone.slice(0, at + 1)));
    expect(field(form, 'phone').value).to.equal('+380501234567');
    compose(field(form, 'fname'), ['O', 'Ol', 'Ole', 'Olen', 'Olena']);
    expect(field(form, 'fname').value).to.equal('Olena');
    expect(['exp', 'cvv', 'phone', 'fname'].map((name) => errorText(form, name as 'exp'))).to.deep.equal(['', '', '', '']);
  });
});
