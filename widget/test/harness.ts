/** Mounting and driving `<pay-form>` in the browser tests. */
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../index.js';
import type { FieldName, PayEventDetails } from '../events.js';
import type { PayButton } from '../pay-button/pay-button.js';
import type { PayForm } from '../pay-form/pay-form.js';
import { openCheckout, type SessionOptions } from './checkout-fixture.js';

/**
 * A `<pay-form>` (or `<pay-button>`) for a session — a new one from `options`, or an existing id at
 * `shop` — inside `parent` or a fresh fixture, once it has announced `pay-ready` and rendered. A
 * session of another merchant is paid at that merchant's companion (`endpoint`).
 */
export async function mount<T extends 'pay-form' | 'pay-button' = 'pay-form'>(
  options: SessionOptions | string = {},
  attributes: Record<string, string> = {},
  tag: T = 'pay-form' as T,
  parent?: Element,
): Promise<HTMLElementTagNameMap[T]> {
  const element = await show(options, attributes, tag, parent);
  // What paying takes and a session's customer-field checks are chunks fetched as the form shows:
  // a customer finds them there by the first click or keystroke, and so do the tests, which act at
  // once. Loaded here too, they have reached the element by the next task.
  await Promise.all([import('../checkout/paying.js'), import('../customer/checks.js')]);
  await new Promise((resolve) => setTimeout(resolve));
  await element.updateComplete;
  return element;
}

/**
 * Resolves once the paying chunk, let go by the dev server (`answerModule`), has reached the
 * element: imported here too, it has by the next task, however long the server took to send it.
 */
export async function payingCame(element: PayForm | PayButton): Promise<void> {
  await import('../checkout/paying.js');
  await new Promise((resolve) => setTimeout(resolve));
  await element.updateComplete;
}

/** As `mount`, but without waiting for the chunks the element fetches as it shows: a click may come before them. */
export async function show<T extends 'pay-form' | 'pay-button' = 'pay-form'>(
  options: SessionOptions | string = {},
  attributes: Record<string, string> = {},
  tag: T = 'pay-form' as T,
  parent?: Element,
): Promise<HTMLElementTagNameMap[T]> {
  const element = document.createElement(tag) as PayForm | PayButton;
  if (typeof options === 'string') element.session = options;
  else {
    const { id, companion_url } = await openCheckout(options);
    element.session = id;
    // `shop` answers at the page's own origin, the widget's default; the other merchants' companions do not.
    if ((options.merchant ?? 'shop') !== 'shop') element.endpoint = companion_url;
  }
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  const ready = oneEvent(element, 'pay-ready');
  if (parent) parent.append(element);
  else await fixture(element);
  await ready;
  await element.updateComplete;
  return element as HTMLElementTagNameMap[T];
}

/** An element of the form's shadow root. */
export function part<E extends Element = HTMLElement>(form: Element, selector: string): E {
  const found = form.shadowRoot!.querySelector<E>(selector);
  if (!found) throw new Error(`no ${selector} in <${form.localName}>`);
  return found;
}

export const field = (form: Element, name: FieldName): HTMLInputElement => part(form, `#${name}`);
export const errorText = (form: Element, name: FieldName): string => part(form, `#${name}-error`).textContent!.trim();
export const message = (form: Element): string => part(form, '[part=message]').textContent!.trim();
export const button = (form: Element): HTMLButtonElement => part(form, '[part~=button]');

/** Whether the pay button is busy: marked disabled, clicks claiming nothing, focus kept. */
export const busy = (element: HTMLButtonElement): boolean => element.getAttribute('aria-disabled') === 'true';

/** The field's value with the caret shown as "|". */
export const withCaret = ({ value, selectionStart }: HTMLInputElement): string =>
  `${value.slice(0, selectionStart!)}|${value.slice(selectionStart!)}`;

/** Types with real key presses into the field (focusing it first). */
export async function type(input: HTMLInputElement, text: string): Promise<void> {
  input.focus();
  await sendKeys({ type: text });
}

export const press = (key: string): Promise<void> => sendKeys({ press: key });

/** The name of the focused field inside the form, if any. */
export const focused = (form: Element): string | undefined => (form.shadowRoot!.activeElement as HTMLInputElement | null)?.name || undefined;

/** Two digits of the year `ahead` years from now. */
export const yearAhead = (ahead: number): string => String(new Date().getFullYear() + ahead).slice(2);

/** Every `detail` of an event type the target dispatches from now on. */
export function record<K extends keyof PayEventDetails>(target: EventTarget, type: K): PayEventDetails[K][] {
  const details: PayEventDetails[K][] = [];
  target.addEventListener(type, (event) => details.push((event as CustomEvent<PayEventDetails[K]>).detail));
  return details;
}

/** What Chromium's autofill does: set each value, then an `input` event without a typed input type. */
export function autofill(form: Element, values: Partial<Record<FieldName, string>>): void {
  for (const [name, value] of Object.entries(values)) {
    const input = field(form, name as FieldName);
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText' }));
  }
}

/** The customer whose details the tests of a session that asks for them type. */
export const OLENA = { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' } satisfies Partial<Record<FieldName, string>>;

/**
 * Presses Pay twice on a form whose paying needs a chunk the page does not serve: each press is
 * `misconfigured` with the general message (English's own are on demand too), its details given
 * to `check` before the next press.
 */
export async function pressedMisconfigured(form: Element, check: (detail: PayEventDetails['pay-error']) => void): Promise<void> {
  for (const press of [1, 2]) {
    const failed = oneEvent(form, 'pay-error');
    button(form).click();
    const { detail } = (await failed) as CustomEvent<PayEventDetails['pay-error']>;
    expect([detail.code, detail.message], `press ${press}`).to.deep.equal(['misconfigured', 'Something went wrong. Please try again in a moment.']);
    check(detail);
  }
}

/** A valid card the sandbox treats by its number (see design.md's test cards). */
export const card = (number: string): Partial<Record<FieldName, string>> => ({
  number,
  exp: `12/${yearAhead(3)}`,
  cvv: number.startsWith('37') ? '1234' : '123',
});

/**
 * A `<pay-form>` offering a saved card, for a customer new to the shop: a first form pays with
 * `number`, the card kept, and goes; the second, for another session of that customer, is answered.
 */
export async function mountWithSavedCard(number = '4242424242424242'): Promise<PayForm> {
  const customer_id = `saved-${crypto.randomUUID()}`;
  const first = await mount({ customer_id });
  const paid = oneEvent(first, 'pay-success');
  autofill(first, card(number));
  button(first).click();
  await paid;
  first.remove();
  return mount({ customer_id });
}

/** Whether `call` is an element's read of `session`'s view (which says the widget's version in its query). */
export const readsSession = (call: Pick<FetchCall, 'url' | 'method'>, session: string): boolean => call.method === 'GET' && call.url.split('?')[0]!.endsWith(`/sessions/${session}`);

export interface FetchCall {
  url: string;
  method: string;
  body: unknown;
}

/**
 * Watches `fetch`: every call is recorded, and `answer` may replace the companion's answer (for the
 * faults no sandbox makes: dropped connections, broken bodies). Returning undefined passes the call on.
 */
export function watchFetch(answer?: (call: FetchCall, pass: () => Promise<Response>) => Promise<Response> | undefined): FetchCall[] & { restore(): void } {
  const real = window.fetch;
  const calls = Object.assign([] as FetchCall[], { restore: () => void (window.fetch = real) });
  window.fetch = (input, init) => {
    const call = { url: String(input), method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined };
    if (!call.url.includes('/__fixture/')) calls.push(call);
    return answer?.(call, () => real(input, init)) ?? real(input, init);
  };
  return calls;
}

/** Watches `console.error`: each call kept as one line instead of printed, until `restore()`. */
export function watchConsoleErrors(): string[] & { restore(): void } {
  const real = console.error;
  const lines = Object.assign([] as string[], { restore: () => void (console.error = real) });
  console.error = (...args: unknown[]) => void lines.push(args.join(' '));
  return lines;
}

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Keeps the test page where it is: cancels every `pay-redirect` of the target (a listener must do it
 * while the event is dispatched) and resolves with the first one.
 */
export function stay(target: EventTarget): Promise<CustomEvent<PayEventDetails['pay-redirect']>> {
  return new Promise((resolve) =>
    target.addEventListener('pay-redirect', (event) => {
      event.preventDefault();
      resolve(event as CustomEvent<PayEventDetails['pay-redirect']>);
    }),
  );
}

/**
 * A card paid in tokenize mode on a tokenizer that gives the page no answer it may read: the
 * customer goes to the hosted page (the redirect kept from happening), and the console's error
 * comes once the widget has told why. Answers the tokenizer's address and that error.
 */
export async function payPastTokenizer(id: string, endpoint: string): Promise<{ tokenizer: string; error: string }> {
  const errors: string[] = [];
  const real = console.error;
  console.error = (...args: unknown[]) => void errors.push(String(args[0]));
  try {
    const form = await mount(id, { endpoint });
    const redirect = stay(form);
    autofill(form, card('4242424242424242'));
    button(form).click();
    expect((await redirect).detail.reason).to.equal('hosted');
    // Told apart from a network down as the customer goes on.
    await waitUntil(() => errors.length > 0, 'the console says why');
    expect(errors).to.have.length(1);
    return { tokenizer: form.view!.tokenizer!.url, error: errors[0]! };
  } finally {
    console.error = real;
  }
}

/**
 * What a screen reader hears of the elements' messages from now on: the new words of each live
 * region (`role=status`) that is not `aria-live=off` as they change, and a message focus moves
 * to, read as it is focused. Said twice — by its live region and again by focus, or by two
 * elements — a message is heard twice.
 */
export function heard(...elements: Element[]): string[] {
  const words: string[] = [];
  for (const element of elements) {
    const root = element.shadowRoot!;
    new MutationObserver((records) => {
      const regions = new Set(records.map(({ target }) => (target instanceof Element ? target : target.parentElement)?.closest('[role=status]')));
      for (const region of regions) if (region?.matches('[part=message]') && region.getAttribute('aria-live') !== 'off' && region.textContent!.trim()) words.push(region.textContent!.trim());
    }).observe(root, { subtree: true, childList: true, characterData: true });
    root.addEventListener('focusin', ({ target }) => target instanceof HTMLElement && target.matches('[part=message]') && words.push(target.textContent!.trim()));
  }
  return words;
}

/**
 * Makes the session's reads say what `change` makes of them until it is extended (the first
 * `POST …/extend`, by the element or as another tab would send it), as the companion would near
 * its end; the extension and the reads after it pass as the companion answers them, or as `after`
 * lets them. Until `restore()`.
 */
export function viewsUntilExtended(
  session: string,
  change: (view: Record<string, unknown>) => Record<string, unknown>,
  after: (pass: () => Promise<Response>) => Promise<Response> = (pass) => pass(),
): FetchCall[] & { restore(): void } {
  const calls = watchFetch((call, pass) => {
    if (!readsSession(call, session)) return undefined;
    if (calls.some(({ url }) => url.endsWith('/extend'))) return after(pass);
    return pass().then(async (answer) => json(answer.status, change((await answer.json()) as Record<string, unknown>)));
  });
  return calls;
}

/**
 * Makes the session's reads say `seconds` are left to pay while it is payable, as the companion
 * would near its end: until `restore()`.
 */
export function secondsLeft(session: string, seconds: number): { restore(): void } {
  return watchFetch((call, pass) =>
    readsSession(call, session)
      ? pass().then(async (answer) => {
          const view = (await answer.json()) as { status: string };
          return json(answer.status, /^[of]/.test(view.status) ? { ...view, expires_in_seconds: seconds } : view);
        })
      : undefined,
  );
}
