import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { type Brand, type BrandId, digitsOf, type Check, type CheckCode } from '@payform/card/fields';
import { CheckoutElement, loadPaying, paying, unserved } from '../checkout/checkout-element.js';
import { companionNow } from '../checkout/companion.js';
import { customerCheck, loadCustomerChecks } from '../customer/fields.js';
import { emit, type FieldName } from '../events.js';
import type { Message } from '../i18n/en.js';
import { theme } from '../theme.styles.js';
import { brandMark } from './brand-marks.js';
import { styles } from './pay-form.styles.js';

/** A field's error: its check's code, or `refused`, a security code the companion refused (refusals.ts, `markRefused`). */
export type FieldError = CheckCode | 'refused';
type Errors = Partial<Record<FieldName, FieldError>>;

/**
 * A card field's value before the pay-time chunk, which judges it, has come: not yet valid, and
 * no error. The chunk is fetched as the form shows; a keystroke before it is judged once it has.
 */
const UNJUDGED: Check = { valid: false, potentiallyValid: true };

/**
 * Each field's autocomplete token, check and inputmode (which is also the input's type for email
 * and tel). Every field with an inputmode — all but the names — holds left-to-right text, and is
 * formatted as it is typed (typing.ts, `reformat`). The card's checks and its brand's detector are
 * the pay-time chunk's, not the bundle every page loads first.
 */
const FIELDS: Record<FieldName, [
  autocomplete: string,
  check: (value: string, brand?: Brand, accepted?: readonly BrandId[]) => Check,
  inputmode?: string,
]> = {
  number: ['cc-number', (value, _, accepted) => paying?.checkNumber(digitsOf(value), accepted) ?? UNJUDGED, 'numeric'],
  exp: ['cc-exp', (value) => paying?.checkExpiry(value, companionNow()) ?? UNJUDGED, 'numeric'],
  cvv: ['cc-csc', (value, brand) => paying?.checkCvv(value, brand) ?? UNJUDGED, 'numeric'],
  fname: ['given-name', customerCheck('checkName')],
  lname: ['family-name', customerCheck('checkName')],
  email: ['email', customerCheck('checkEmail'), 'email'],
  phone: ['tel', customerCheck('checkPhone'), 'tel'],
};

/**
 * A card payment form for one checkout session of the payform companion: card number, expiry and
 * security code, the customer fields the session asks for, saved cards, 3-D Secure and hosted checkout.
 *
 * @element pay-form
 *
 * @attr session - The checkout session id (from the companion).
 * @attr endpoint - The companion's base URL; defaults to the companion that served the script (its URL up to `/widget/pay-form.js`).
 * @attr mode - `hosted` shows only the button to the gateway's payment page; `direct` or by default the form pays directly. Another value (`Hosted`, `redirect`) is no mode: the hosted page all the same, and the console says so.
 * @attr lang - Language of the form; defaults to the closest `lang` up the page.
 * @attr processing - Reflected while a payment is in flight or being confirmed.
 * @attr invalid - Reflected while a field shows an error.
 * @attr complete - Reflected when every field is complete.
 *
 * @event {CustomEvent<PayEventDetails['pay-ready']>} pay-ready - The session loaded, or a payment it was confirming was declined, and the form takes payment: once a session, before that decline. `detail: { mode, test, amount, currency }` (amount in minor units).
 * @event {CustomEvent<PayEventDetails['pay-change']>} pay-change - A field changed. `detail: { field, empty, complete, valid, brand?, error? }`.
 * @event {CustomEvent<PayEventDetails['pay-brand-change']>} pay-brand-change - The card brand became known or changed. `detail: { brand? }`.
 * @event {CustomEvent<PayEventDetails['pay-submit']>} pay-submit - A valid form is being submitted; cancelable.
 * @event {CustomEvent<PayEventDetails['pay-redirect']>} pay-redirect - About to leave for 3-D Secure or the hosted page; cancelable. `detail: { url, reason }`.
 * @event {CustomEvent<PayEventDetails['pay-success']>} pay-success - The payment succeeded (also one left in flight, or pending, when the page set another session: by its `orderId`). `detail: { orderId, paymentId? }`.
 * @event {CustomEvent<PayEventDetails['pay-failure']>} pay-failure - The payment was declined; the form stays. `detail: { message, orderId }`.
 * @event {CustomEvent<PayEventDetails['pay-error']>} pay-error - The companion could not be reached or answered badly, or the page is set up wrong. `detail: { code, message, reason?, orderId? }` (`reason`, for the developer, with `misconfigured` and an unknown session; `orderId`, of a payment left in flight when the page set another session, whose outcome is unknown).
 *
 * @csspart form - The form.
 * @csspart field - A label, input and error group.
 * @csspart label - A field's label.
 * @csspart input - A text input.
 * @csspart field-number - The group of the card number, beside `field`.
 * @csspart field-exp - The group of the expiry date, beside `field`.
 * @csspart field-cvv - The group of the security code, beside `field`.
 * @csspart field-fname - The group of the first name, beside `field`.
 * @csspart field-lname - The group of the last name, beside `field`.
 * @csspart field-email - The group of the e-mail, beside `field`.
 * @csspart field-phone - The group of the phone, beside `field`.
 * @csspart input-number - The input of the card number, beside `input`.
 * @csspart input-exp - The input of the expiry date, beside `input`.
 * @csspart input-cvv - The input of the security code, beside `input`.
 * @csspart input-fname - The input of the first name, beside `input`.
 * @csspart input-lname - The input of the last name, beside `input`.
 * @csspart input-email - The input of the e-mail, beside `input`.
 * @csspart input-phone - The input of the phone, beside `input`.
 * @csspart hint - A field's hint (expiry format, where the security code is).
 * @csspart error - A field's error message.
 * @csspart icon - The card brand mark.
 * @csspart saved - The saved cards group.
 * @csspart button - The pay button (also the "check again" button).
 * @csspart note - For a card verification (`lookup` session): that the card is saved and nothing is charged.
 * @csspart message - The live region: processing, declines, errors, success.
 * @csspart more-time - Beside the warning that the time to pay is nearly up, the button asking for more time (a session view with `extendable`).
 * @csspart banner - The test mode banner.
 * @csspart success - The success view.
 * @csspart test-cards - The test cards list (test mode only).
 *
 * @cssproperty --pay-form-color-text - Text colour.
 * @cssproperty --pay-form-color-background - Input background.
 * @cssproperty --pay-form-color-border - Input border; by default mixed from the text colour.
 * @cssproperty --pay-form-color-accent - Button, focus and selection colour.
 * @cssproperty --pay-form-color-on-accent - Text on the accent colour; by default the background colour.
 * @cssproperty --pay-form-color-error - Errors.
 * @cssproperty --pay-form-color-muted - Hints and secondary text; by default mixed from the text colour.
 * @cssproperty --pay-form-font - The `font` shorthand.
 * @cssproperty --pay-form-radius - Corner radius of inputs and buttons.
 * @cssproperty --pay-form-spacing - Space between fields.
 * @cssproperty --pay-form-focus-ring - The focus ring (a `box-shadow`).
 */
export class PayForm extends CheckoutElement {
  static override styles = [theme, styles];
  static override properties: PropertyDeclarations = {
    mode: {},
    invalid: { type: Boolean, reflect: true },
    complete: { type: Boolean, reflect: true },
    errors: { state: true },
    brand: { state: true },
    token: { state: true },
  };

  /** `hosted` for the gateway's payment page only; `direct` or empty (default) pays directly when the session allows it. Any other value is no mode: the hosted page all the same, and the console says so. */
  mode: '' | 'hosted' | 'direct' = '';
  invalid = false;
  complete = false;

  /**
   * The error each field shows, if any.
   * @internal
   */
  errors: Errors = {};
  /**
   * The card number's brand, once known.
   * @internal
   */
  brand?: Brand;
  /**
   * The chosen saved card; empty for a new card.
   * @internal
   */
  token = '';
  /**
   * Each edited field's value before the current edit.
   * @internal
   */
  edited: Partial<Record<FieldName, string>> = {};

  /**
   * Direct payment needs a session that allows it and a secure page; otherwise hosted checkout is
   * the way. So is any `mode` set but `direct`: one that is no mode (`Hosted`, `redirect`) is the
   * low-scope path too, rather than card data the page may not mean to take (diagnose.ts says so).
   * @internal
   */
  override get hosted(): boolean {
    return (!!this.mode && this.mode !== 'direct') || !this.view?.modes.includes('direct') || !isSecureContext;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const { view } = this;
    if (changed.has('view') && view && !changed.get('view')) this.token = view.saved_cards[0]?.token ?? '';
    // The choice of card changed. A saved card: the card fields go, and what they held with them —
    // their errors (and so the summary of them, announcements.ts `keepSummary`), their edits
    // (Chromium tells a focused field's removal as focus leaving it, which would judge it) and the
    // typed number's brand, gone for the page as at a reset: a new card's fields come back
    // untouched. [complete], by which a page may enable its own pay button, is for the fields left:
    // the customer fields the session asks, once shown, and a new card's own, back empty.
    if (changed.has('token')) {
      if (this.token) {
        const { number: _number, exp: _exp, cvv: _cvv, ...others } = this.edited;
        this.edited = others;
        if (this.errors.number || this.errors.exp || this.errors.cvv) this.show({ number: undefined, exp: undefined, cvv: undefined });
        if (this.brand) {
          this.brand = undefined;
          emit(this, 'pay-brand-change', {});
        }
      }
      const asked = this.inputs().filter(({ name }) => !['number', 'exp', 'cvv'].includes(name));
      this.complete = !!this.token && asked.length === (view?.customer_fields.length ?? 0) && asked.every((input) => this.check(input).valid);
    }
    // The form shows the customer fields the session asks for: their checks load now, not waited for.
    if (view?.customer_fields.length) void loadCustomerChecks(unserved(this));
  }

  /**
   * Empties the fields and chooses the first saved card again, telling the page of each field
   * emptied: the merchant's form was reset. Here, not in the paying chunk: before that chunk came
   * the fields were all there was to reset; once it has, its `reset` clears what it keeps besides.
   * @internal
   */
  empty(): void {
    const emptied = this.inputs().filter((input) => input.value);
    for (const input of emptied) input.value = '';
    Object.assign(this, { edited: {}, token: this.view?.saved_cards[0]?.token ?? '' });
    for (const { name } of emptied) emit(this, 'pay-change', { field: name as FieldName, empty: true, complete: false, valid: true });
  }

  /** @internal */
  override formResetCallback(): void {
    if (paying) super.formResetCallback();
    else this.empty();
  }

  /** @internal */
  inputs(): HTMLInputElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLInputElement>('[part~=input]')];
  }

  /** @internal */
  field(name: FieldName): HTMLInputElement | null {
    return this.renderRoot.querySelector(`#${name}`);
  }

  /** @internal */
  check({ name, value }: HTMLInputElement): Check {
    return FIELDS[name as FieldName][1](value, this.brand, this.view?.brands);
  }

  /**
   * Shows or clears fields' errors and refreshes the reflected states.
   * @internal
   */
  show(errors: Errors): void {
    this.errors = { ...this.errors, ...errors };
    this.invalid = Object.values(this.errors).some(Boolean);
    this.complete = this.inputs().every((input) => this.check(input).valid);
  }

  #message(name: FieldName, code: FieldError): string {
    // A security code of the wrong length, short or (after the brand changed) long: say how many
    // digits; one the companion refused, that it is invalid.
    const key = code === 'empty' ? 'required' : code === 'card_number' ? code : name === 'cvv' && code !== 'refused' ? (this.brand?.cvv ? 'cvv_amex' : 'cvv_incomplete') : `${name}_${code}`;
    return this.t[key as Message] ?? this.t.invalid;
  }

  /** The pay-time chunk, as a keystroke before it came asked for it: once, whatever followed (`#onInput`). */
  #formatting?: Promise<unknown>;

  #onInput(event: InputEvent): void {
    const input = event.target as HTMLInputElement;
    const name = input.name as FieldName;
    if (!FIELDS[name]) return;
    // Formatting is the pay-time chunk's, fetched as the form showed: a keystroke before it has
    // come is formatted (this input again) once it has, unless typing went on. Asked for once: a
    // chunk that cannot load is not fetched again at every keystroke. What an input method is
    // composing is left alone until it is committed, then taken as one edit (typing.ts, `composed`).
    if (paying?.reformat(this, input, event)) return;
    const { value } = input;
    // A paste is replayed as one: its formatting keeps the number alone (a pasted expiry after it).
    const inputType = event.inputType === 'insertFromPaste' ? event.inputType : '';
    const again = (): unknown => input.value === value && input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType }));
    if (!paying) void (this.#formatting ??= loadPaying(this)).then((module) => module && again());
    this.edited[name] = value;
    const check = this.check(input);
    // A check still loading what judges it (the card-number detector): this input again once it has, unless typing went on.
    void check.pending?.then(again);
    // While typing, a field turns invalid only once no more typing can make it valid — and not
    // before it is formatted: unformatted ("４", "428" for 04/28) it may read as invalid yet be fine.
    const typed = (judged: Check): CheckCode | undefined => (judged.potentiallyValid || !paying ? undefined : judged.code);
    const errors: Partial<Record<FieldName, CheckCode>> = { [name]: typed(check) };
    const brand = name === 'number' ? paying?.detectBrand(digitsOf(input.value)) : this.brand;
    if (brand !== this.brand) {
      this.brand = brand;
      emit(this, 'pay-brand-change', { brand: brand?.id });
      const cvv = this.field('cvv')!;
      if (cvv.value) errors.cvv = typed(this.check(cvv));
    }
    this.show(errors);
    // `valid` as the error shown: held back, as it is, until the field is formatted.
    emit(this, 'pay-change', { field: name, empty: !input.value, complete: check.valid, valid: !errors[name], brand: brand?.id, error: errors[name] });
    // Typed to its full length: on to the next field (the pay-time chunk's, there by then).
    paying?.advance(this, event, check, errors);
  }

  // The brand and each error are polite live regions, there (empty) from the first render: said
  // as they appear or change, not on every keystroke, and not only once the customer submits.
  #input(name: FieldName, hint?: Message): TemplateResult {
    const [autocomplete, , inputmode] = FIELDS[name];
    const error = this.errors[name];
    return html`<div part="field field-${name}">
      <div><label part="label" for=${name}>${this.t[name]}</label>${hint ? html`<span part="hint" id="${name}-hint" dir="auto">${this.t[hint]}</span>` : nothing}</div>
      <div class="control" dir=${inputmode ? 'ltr' : nothing}>
        <input part="input input-${name}" id=${name} name=${name} type=${(inputmode !== 'numeric' && inputmode) || 'text'}
          autocomplete=${autocomplete} inputmode=${inputmode ?? nothing} autocorrect="off" spellcheck="false" aria-required="true"
          aria-invalid=${!!error} aria-describedby="${name}-error${hint ? ` ${name}-hint` : ''}">
        ${name === 'number' ? html`<span role="status">${brandMark(this.brand)}</span>` : nothing}
      </div>
      <div part="error" dir="auto" id="${name}-error" role="status">${error ? this.#message(name, error) : ''}</div>
    </div>`;
  }

  // The hosted page takes the card, but the gateway needs the customer's details the session
  // lacks (its customer_fields): the form asks for those, and only those, before it goes there.
  protected override body(): TemplateResult {
    const { view } = this;
    if (this.hosted && !view?.customer_fields.length) return this.button();
    const asked = (name: FieldName): TemplateResult | typeof nothing => (view!.customer_fields.includes(name as never) ? this.#input(name) : nothing);
    // Leaving a field, checking the fields and paying are the pay-time chunk's (paying.ts), there
    // by then: "incomplete" and "required" wait for the customer to leave a field they edited.
    // Arrows, not methods: the bundle's budget counts bytes.
    return html`<form part="form" novalidate aria-busy=${this.phase === 'paying'} @input=${this.#onInput}
      @focusout=${(event: FocusEvent) => paying?.left(this, event)} @submit=${(event: SubmitEvent) => (event.preventDefault(), void this.pay())}>
      ${this.hosted
        ? nothing
        : html`${view!.saved_cards.length
            ? html`<fieldset part="saved"><legend>${this.t.saved}</legend>${[...view!.saved_cards, { token: '', mask: '' }].map(
                (card) => html`<label><input type="radio" name="card" .checked=${this.token === card.token} @change=${() => (this.token = card.token)}>${card.token
                  ? html`${brandMark(paying?.detectBrand(digitsOf(card.mask)))}<span dir="ltr">•••• ${card.mask.slice(-4)}</span>`
                  : this.t.new_card}</label>`,
              )}</fieldset>`
            : nothing}
          ${this.token ? nothing : html`${this.#input('number')}<div class="row">${this.#input('exp', 'exp_hint')}${this.#input('cvv', this.brand?.cvv ? 'cvv_hint_amex' : 'cvv_hint')}</div>`}`}
      <div class="row">${asked('fname')}${asked('lname')}</div>${asked('email')}${asked('phone')}${this.button(true)}
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-form': PayForm;
  }
}
