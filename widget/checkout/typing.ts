/**
 * The customer at the fields: each formatted as it is typed, a field typed to its end moved on
 * from, a composed text taken as one edit, and a field left judged.
 */
import { digitsOf, formatCvv, formatExpiry, formatNumber, maxLength, type Brand, type Check, type CheckCode, type Edit, type Keystroke } from '@payform/card/fields';
import { emit, type FieldName } from '../events.js';
import type { Form } from './form.js';

/**
 * What an input method composed (a CJK one, a phone keyboard's predictive text), once committed:
 * formatted, judged, told to the page and moved on from as one edit typed, by the form's own
 * handling of an `input` (pay-form.ts, `#onInput`). While it is composed, each of its updates is
 * left as the input method shows it (`reformat`): Chromium fires none after the last one, which is
 * still composing, so the form hears of it here.
 */
export function composed(form: Form): void {
  form.addEventListener('compositionend', (event) => {
    const [input] = event.composedPath();
    if (input instanceof HTMLInputElement) input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: (event as CompositionEvent).data }));
  });
}

/**
 * The end of the press under way, if one is: a mouse's main button held, or a tap, whose
 * mousedown and mouseup come as the finger lifts. Resolved a task after its mouseup, once its
 * click is over; or as a drag ends, a key is pressed, or the page loses the focus (a release over
 * a select's list or another origin's frame, which this page never hears).
 */
let pressEnd: Promise<void> | undefined;
const PRESS_ENDS = ['mouseup', 'dragend', 'keydown', 'blur'];
addEventListener(
  'mousedown',
  ({ button }) =>
    button ||
    (pressEnd ??= new Promise((resolve) => {
      const end = (): void => {
        pressEnd = undefined;
        for (const type of PRESS_ENDS) removeEventListener(type, end, true);
        setTimeout(resolve);
      };
      for (const type of PRESS_ENDS) addEventListener(type, end, true);
    })),
  true,
);

/**
 * The customer left a field of the form: one they edited shows what it lacks now ("incomplete"
 * and "required" wait for this), and the page hears of it (`pay-change`) when that changed the
 * error it shows, and only then. Here, not in the bundle: leaving a field comes after the form
 * showed, and so after this chunk was fetched.
 *
 * Left by a press (focus moves as it begins), the field is judged once the press is over
 * (`pressEnd`): its error, a line or two above what was pressed, would move that from under the
 * pointer, and the release would fall beside it — a click on nothing, "Pay" or "I need more
 * time" pressed for nothing. Left by keyboard (Tab), or by a screen reader's focus, at once.
 */
export function left(form: Form, { target }: FocusEvent): void {
  const input = target as HTMLInputElement;
  if (pressEnd) void pressEnd.then(() => judgeLeft(form, input));
  else judgeLeft(form, input);
}

/** `left`'s judgement of `input`, while it is still in the form (not gone with it as the payment's outcome shows). */
function judgeLeft(form: Form, input: HTMLInputElement): void {
  const name = input.name as FieldName;
  if (!(name in form.edited) || !input.isConnected) return;
  const check = form.check(input);
  const { code: error } = check;
  // A value the companion or the tokenizer refused passes the form's own check: only an edit clears its error.
  if (form.errors[name] === error || (!error && form.errors[name])) return;
  form.show({ [name]: error });
  emit(form, 'pay-change', { field: name, empty: !input.value, complete: check.valid, valid: check.potentiallyValid, brand: form.brand?.id, error });
}

/** How each field but the names is formatted as it is typed: the phone kept as typed, but for its digits written 0–9. */
const FORMATS: Partial<Record<FieldName, (keystroke: Keystroke, brand?: Brand) => Edit>> = {
  number: formatNumber,
  exp: formatExpiry,
  cvv: formatCvv,
  phone: (keystroke) => keystroke,
};

/**
 * A field of the form as the customer typed it, formatted, the caret — or each end of a selection —
 * after the same digit. Here, not in the bundle, as `advance`: typing comes after the form showed;
 * a keystroke before this chunk is formatted once it has come (pay-form.ts, `#onInput`), by which
 * time the customer may have selected digits to type over: the selection is kept. True, and
 * nothing rewritten, while an input method composes the field's text (`composed`).
 */
export function reformat(form: Form, input: HTMLInputElement, { inputType, isComposing }: InputEvent): true | void {
  // Rewritten under it, an input method would compose on after what it no longer replaces ("4424" for "4242").
  if (isComposing) return true;
  const name = input.name as FieldName;
  const format = FORMATS[name];
  if (!format) return;
  // NFKC: full-width digits and slashes, as a CJK input method types them, are read as 0–9 and /.
  // Arabic-Indic and Persian digits, which NFKC keeps, are 0–9 by their low four bits; one
  // character for one, so the caret stays where it was (`replace` writes the number as text).
  const value = input.value.normalize('NFKC').replace(/[٠-٩۰-۹]/g, (digit) => (digit.charCodeAt(0) & 15) as never);
  const [start, end] = [input.selectionStart ?? 0, input.selectionEnd ?? 0].map((caret) => format({ value, caret, inputType, before: form.edited[name] }, form.brand));
  input.value = end!.value;
  if (form.shadowRoot!.activeElement === input) input.setSelectionRange(start!.caret, end!.caret);
}

/**
 * A field typed or pasted to its full length (the brand's, for the card number and the security
 * code) and valid, the caret at its end: on to the next field. Autofill has no input type and
 * stays, and so does an edit in the middle (a month retyped before its year). Tab after the move
 * moves on from where focus went, as every Tab does (WCAG 2.1.1): a Tab held there, lest a Tab
 * pressed by habit skip the field, was one the customer pressed for nothing. Here, not in the
 * bundle, as `left`: a field is typed to its end after the form showed. `shown`: the errors the
 * input judged — the code's among them only when the number's brand changed, which the page is
 * told of here too (the bundle's bytes are spent on nothing more than passing them).
 */
export function advance(form: Form, { target, inputType }: InputEvent, { valid }: Check, shown: Partial<Record<FieldName, CheckCode>>): void {
  const input = target as HTMLInputElement;
  const { name, value } = input;
  // The number's new brand judged the security code again (three digits or four): the page hears
  // of it as of any change to the code, not only once the customer leaves the code's field.
  if (name !== 'cvv' && 'cvv' in shown) {
    emit(form, 'pay-change', { field: 'cvv', empty: false, complete: form.check(form.field('cvv')!).valid, valid: !shown.cvv, brand: form.brand?.id, error: shown.cvv });
  }
  const digits = digitsOf(value).length;
  // Not from the code, the last card field: what comes next takes any text, and a digit typed
  // past the code (four for a Visa's three) would land in the first name unseen (WCAG 3.2.2).
  const full = name === 'exp' || (name === 'number' && digits === maxLength(form.brand));
  if (valid && full && /^insert(Text|FromPaste)/.test(inputType) && input.selectionEnd === value.length) {
    const inputs = form.inputs();
    inputs[inputs.indexOf(input) + 1]?.focus();
  }
}
