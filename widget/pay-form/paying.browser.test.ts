import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayForm } from './pay-form.js';
import type { FieldName, PayEventDetails } from '../events.js';
import { advanceGatewayClock, closeSession, createSession, decideChallenge, readView } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, errorText, field, focused, json, message, mount, OLENA, part, press, readsSession, record, stay, type, watchConsoleErrors, watchFetch } from '../test/harness.js';

/** Fills a test card and clicks Pay. */
async function payWith(form: PayForm, number: string): Promise<void> {
  autofill(form, card(number));
  button(form).click();
}

/** Pays with a card the payment fails for; what the pay-failure event says, once the form shows the same words. */
async function failureSaid(form: PayForm, number: string): Promise<string> {
  const failure = oneEvent(form, 'pay-failure');
  await payWith(form, number);
  const { message: said } = (await failure).detail;
  await form.updateComplete;
  expect(message(form), 'the form shows what the event says').to.equal(said);
  return said;
}

const payRequests = (calls: { url: string; method: string }[]): number => calls.filter((call) => call.url.endsWith('/pay')).length;

/** A form for a session that already exists and may be in any state; resolves once it has rendered it. */
async function mountExisting(session: string): Promise<PayForm> {
  const form = document.createElement('pay-form');
  form.session = session;
  form.pollInterval = 50;
  await fixture(form);
  await waitUntil(() => !form.shadowRoot!.querySelector('.spinner') || form.hasAttribute('processing'), 'the session did not load');
  return form;
}

/**
 * A form for `first` whose view comes only once the page watches the form render: `move` runs in
 * the very turn that view first shows ready, as a page setting another session then would. The
 * view of `stalled`, if named, never comes. `amounts`: each pay-ready's; `views.restore()` when done.
 */
async function movedAsReady(first: string, move: (form: PayForm) => void, stalled?: string): Promise<{ form: PayForm; amounts: number[]; views: { restore(): void } }> {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  const views = watchFetch((call, pass) => (readsSession(call, first) ? held.then(pass) : stalled && readsSession(call, stalled) ? new Promise(() => {}) : undefined));
  try {
    const form = document.createElement('pay-form');
    form.session = first;
    const amounts: number[] = [];
    form.addEventListener('pay-ready', (event) => amounts.push(event.detail.amount));
    await fixture(form);
    const watcher = new MutationObserver(() => {
      if (!form.shadowRoot!.querySelector('form')) return;
      watcher.disconnect();
      move(form);
    });
    watcher.observe(form.shadowRoot!, { childList: true, subtree: true });
    answer();
    return { form, amounts, views };
  } catch (error) {
    views.restore();
    throw error;
  }
}

/** The outcome events a page hears from `form`: their order, and each one's last detail. */
function outcomesHeard(form: PayForm): { heard: string[]; details: Partial<PayEventDetails> } {
  const heard: string[] = [];
  const details: Record<string, unknown> = {};
  for (const type of ['pay-ready', 'pay-success', 'pay-failure', 'pay-error']) {
    form.addEventListener(type, (event) => {
      heard.push(type);
      details[type] = (event as CustomEvent).detail;
    });
  }
  return { heard, details };
}

/**
 * A form that pays with `number`, its `/pay` held until the page has set another session (and
 * that one shows ready), then answered — or, `lost`, taken by the companion and its answer lost on
 * the way back. Resolves once the answer came; `payments.restore()` when done.
 */
async function switchedWhilePaying(number: string, { lost = false } = {}) {
  const second = await createSession({ amount: 2000 });
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  let answered = false;
  const payments = watchFetch((call, pass) => {
    if (!call.url.endsWith('/pay')) return undefined;
    const passed = held.then(pass).finally(() => (answered = true));
    return lost ? passed.then(() => Promise.reject(new TypeError('Failed to fetch'))) : passed;
  });
  try {
    const form = await mount();
    form.pollInterval = 50;
    const paidOrder = form.view!.order_id;
    expect(paidOrder).to.be.a('string');
    const { heard, details } = outcomesHeard(form);
    await payWith(form, number);
    await waitUntil(() => payRequests(payments) === 1, 'no payment was sent');
    form.session = second;
    await waitUntil(() => heard.length, 'the second session never became ready');
    answer();
    await waitUntil(() => answered, 'the payment was never answered');
    return { form, paidOrder, heard, details, payments };
  } catch (error) {
    payments.restore();
    throw error;
  }
}

/** The form shows the session the page set, ready to pay, and nothing of the payment it replaced. */
async function showsTheNewSession(form: PayForm): Promise<void> {
  await form.updateComplete;
  expect(button(form).textContent).to.match(/^Pay UAH\s20\.00$/);
  expect(message(form)).to.equal('');
  expect(form.phase).to.equal('ready');
}

describe('<pay-form> paying', () => {
  let calls: ReturnType<typeof watchFetch>;
  beforeEach(() => (calls = watchFetch()));
  afterEach(() => calls.restore());

  it('pays, keeps the button disabled meanwhile, and shows the paid amount', async () => {
    const form = await mount();
    const success = oneEvent(form, 'pay-success');
    await payWith(form, '4242424242424242');
    await form.updateComplete;
    expect(busy(button(form))).to.equal(true);
    expect(button(form).textContent).to.equal('Processing payment…');
    expect(form.hasAttribute('processing')).to.equal(true);
    expect(part(form, 'form').getAttribute('aria-busy')).to.equal('true');
    expect(form.inputs().map((input) => input.readOnly), 'what is paid stays what the fields show').to.deep.equal([true, true, true]);
    const { detail } = await success;
    expect(detail.orderId).to.be.a('string');
    expect(detail.paymentId).to.be.a('string');
    await form.updateComplete;
    expect(message(form)).to.equal('Payment successful');
    expect(part(form, '[part=success]').textContent).to.contain('100.50');
    expect(form.shadowRoot!.querySelector('input'), 'no card data stays in the page').to.equal(null);
    expect(form.hasAttribute('processing')).to.equal(false);
  });

  it('sends the card, the customer the session asks for, the browser fingerprint and the page paid from', async () => {
    // A hash route's state or an implicit flow's token stays in the browser, as a browser keeps a fragment from servers.
    const address = location.href;
    history.replaceState(null, '', '#access_token=from-the-shop-s-sign-in');
    const form = await mount({ customer: {} });
    const success = oneEvent(form, 'pay-success');
    autofill(form, { ...card('5454545454545454'), fname: ' Olena ', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380 (67) 123-45-67' });
    button(form).click();
    await success;
    history.replaceState(null, '', address);
    const pay = calls.find((call) => call.url.endsWith('/pay'))!;
    const body = pay.body as { card: object; customer: object; fingerprint: Record<string, unknown>; page_url: string };
    expect(pay.url).to.equal(`${location.origin}/api/checkout/sessions/${form.session}/pay`);
    // Without a return_url, the customer comes back here after 3-D Secure.
    expect(body.page_url).to.equal(address.split('#')[0]);
    expect(body.card).to.deep.equal({ number: '5454545454545454', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvv: '123' });
    // The phone as typed: the companion drops its spaces, brackets and dashes.
    expect(body.customer).to.deep.equal({ fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380 (67) 123-45-67' });
    expect(Object.keys(body.fingerprint).sort()).to.deep.equal([
      'browserColorDepth', 'browserJavaEnabled', 'browserLanguage', 'browserScreenHeight', 'browserScreenWidth', 'browserTimeZone', 'browserTimeZoneOffset',
    ]);
    expect(Object.values(body.fingerprint).every((value) => typeof value === 'string')).to.equal(true);
    expect(body.fingerprint.browserTimeZoneOffset).to.equal(String(new Date().getTimezoneOffset()));
    expect(body.fingerprint.browserJavaEnabled).to.equal('false');
  });

  it('sends the browser data as 3-D Secure takes it: a 30-bit screen as 24, height and width apart, UTC+2 as -120', async () => {
    // A customer two hours east of UTC, on a 30-bit (HDR) screen, which EMV 3DS has no value for.
    const offset = Object.getOwnPropertyDescriptor(Date.prototype, 'getTimezoneOffset')!;
    Object.defineProperty(Date.prototype, 'getTimezoneOffset', { ...offset, value: () => -120 });
    Object.defineProperty(screen, 'colorDepth', { configurable: true, get: () => 30 });
    try {
      const form = await mount();
      const success = oneEvent(form, 'pay-success');
      await payWith(form, '5454545454545454');
      await success;
    } finally {
      Object.defineProperty(Date.prototype, 'getTimezoneOffset', offset);
      delete (screen as { colorDepth?: number }).colorDepth;
    }
    const { fingerprint } = calls.find((call) => call.url.endsWith('/pay'))!.body as { fingerprint: Record<string, string> };
    expect(fingerprint).to.deep.equal({
      browserColorDepth: '24',
      browserScreenHeight: String(screen.height),
      browserScreenWidth: String(screen.width),
      browserJavaEnabled: 'false',
      browserLanguage: navigator.language,
      browserTimeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      browserTimeZoneOffset: '-120',
    });
    expect(screen.height, 'the test tells height from width').to.not.equal(screen.width);
  });

  it('pays from a browser whose language carries the customer’s regional preferences, sending the language alone', async () => {
    // Android 14's regional preferences (calendar, first day, measures, temperature) ride in the
    // locale as a Unicode extension: 46 characters, past the 35 EMV 3-D Secure (and the companion) take.
    const language = Object.getOwnPropertyDescriptor(Navigator.prototype, 'language')!;
    Object.defineProperty(navigator, 'language', { configurable: true, get: () => 'en-UA-u-ca-gregory-fw-mon-ms-metric-mu-celsius' });
    try {
      const form = await mount();
      const outcome = Promise.race([oneEvent(form, 'pay-success'), oneEvent(form, 'pay-error')]);
      await payWith(form, '4242424242424242');
      expect((await outcome).type, message(form)).to.equal('pay-success');
    } finally {
      delete (navigator as { language?: string }).language;
    }
    expect(navigator.language, 'put back').to.equal(language.get!.call(navigator));
    const { fingerprint } = calls.find((call) => call.url.endsWith('/pay'))!.body as { fingerprint: Record<string, string> };
    expect(fingerprint.browserLanguage).to.equal('en-UA');
  });

  it('creates one payment however often the customer clicks or presses Enter', async () => {
    const form = await mount();
    const success = oneEvent(form, 'pay-success');
    autofill(form, card('4242424242424242'));
    button(form).click();
    button(form).click();
    part<HTMLFormElement>(form, 'form').requestSubmit();
    await success;
    expect(payRequests(calls)).to.equal(1);
  });

  it('submits on Enter from a field', async () => {
    const form = await mount();
    autofill(form, card('4242424242424242'));
    const submit = oneEvent(form, 'pay-submit');
    const success = oneEvent(form, 'pay-success');
    field(form, 'cvv').focus();
    await press('Enter');
    await submit;
    await success;
    // The fields gave way to the outcome: focus goes to what it says, not to the page's start.
    await waitUntil(() => form.shadowRoot!.activeElement === part(form, '[part=message]'), 'focus was lost with the fields');
  });

  it('keeps focus on what it says while a payment is confirmed', async () => {
    const form = await mount();
    form.pollInterval = 50;
    autofill(form, card('4000000000000119'));
    field(form, 'cvv').focus();
    await press('Enter');
    await waitUntil(() => message(form) === 'Confirming your payment…', 'no confirming state');
    await waitUntil(() => form.shadowRoot!.activeElement === part(form, '[part=message]'), 'focus was lost with the fields');
    // Other focus the customer chose is left alone.
    const elsewhere = await fixture<HTMLInputElement>(html`<input aria-label="elsewhere">`);
    elsewhere.focus();
    await advanceGatewayClock(5);
    await waitUntil(() => message(form) === 'Payment successful', 'not paid');
    expect(document.activeElement).to.equal(elsewhere);
  });

  it('does not pay an invalid form: shows every error and focuses the first invalid field', async () => {
    const form = await mount({ customer: { fname: 'Olena', lname: 'Kovalenko' } });
    autofill(form, { exp: `12/${String(new Date().getFullYear() + 3).slice(2)}` });
    button(form).click();
    await form.updateComplete;
    expect(focused(form)).to.equal('number');
    expect(errorText(form, 'number')).to.equal('This field is required.');
    expect(errorText(form, 'exp')).to.equal('');
    expect(errorText(form, 'cvv')).to.equal('This field is required.');
    expect(errorText(form, 'email')).to.equal('This field is required.');
    expect(message(form)).to.equal('Check the highlighted fields.');
    // Pressed again with the same errors: the words go and come back, so a screen reader says them again.
    button(form).click();
    await form.updateComplete;
    expect(message(form)).to.equal('');
    await waitUntil(() => message(form) === 'Check the highlighted fields.', 'not said again');
    expect(payRequests(calls)).to.equal(0);
  });

  it('pays from the page\'s own button through pay(), checking the fields first, once however often it is called', async () => {
    const form = await mount();
    const place = await fixture<HTMLButtonElement>(html`<button>Place order</button>`);
    place.addEventListener('click', () => void form.pay());
    place.click();
    await form.updateComplete;
    expect([focused(form), errorText(form, 'number'), payRequests(calls)]).to.deep.equal(['number', 'This field is required.', 0]);
    autofill(form, card('4242424242424242'));
    const submit = oneEvent(form, 'pay-submit');
    const success = oneEvent(form, 'pay-success');
    place.click();
    place.click();
    await submit;
    await success;
    expect(payRequests(calls)).to.equal(1);
  });

  it('pays once when a pay-submit listener calls pay() again', async () => {
    const form = await mount();
    form.addEventListener('pay-submit', () => void form.pay());
    autofill(form, card('4242424242424242'));
    const success = oneEvent(form, 'pay-success');
    await form.pay();
    await success;
    expect(payRequests(calls)).to.equal(1);
  });

  it('lets the page veto the payment by cancelling pay-submit', async () => {
    const form = await mount();
    form.addEventListener('pay-submit', (event) => event.preventDefault());
    autofill(form, card('4242424242424242'));
    button(form).click();
    await form.updateComplete;
    expect(payRequests(calls)).to.equal(0);
    expect(busy(button(form))).to.equal(false);
  });

  for (const [number, words] of [
    ['4000000000000002', /declined/i],
    ['4000000000009995', /insufficient funds/i],
    ['4000000000000069', /expired/i],
  ] as const) {
    it(`keeps the form for another try after a decline (${number})`, async () => {
      const form = await mount();
      expect(await failureSaid(form, number), "the companion's customer-safe words").to.match(words);
      expect(part(form, '[part=message]').classList.contains('error')).to.equal(true);
      expect(field(form, 'cvv').value, 'what was typed stays').to.equal('123');
      expect(form.inputs().some((input) => input.readOnly), 'editable again').to.equal(false);
      expect(busy(button(form))).to.equal(false);
      await waitUntil(() => focused(form) === undefined && form.shadowRoot!.activeElement === button(form), 'focus did not return to the pay button');
      const success = oneEvent(form, 'pay-success');
      autofill(form, { number: '4242424242424242' });
      button(form).click();
      await success;
    });
  }

  it('closes the form on the decline that used up the session, saying why, as a reload would', async () => {
    const form = await mount();
    const { heard, details } = outcomesHeard(form);
    for (let attempt = 1; attempt < 10; attempt += 1) await failureSaid(form, '4000000000000002');
    expect(form.inputs().length, 'the form stays for the first nine').to.be.greaterThan(0);
    heard.length = 0;
    const closed = oneEvent(form, 'pay-error');
    const said = await failureSaid(form, '4000000000000002');
    expect(said).to.equal('The card was declined, and this checkout takes no more attempts. Please start again.');
    expect((await closed).detail.code).to.equal('closed');
    expect(heard).to.deep.equal(['pay-failure', 'pay-error']);
    expect(details['pay-error']?.message).to.equal(said);
    expect(form.shadowRoot!.querySelector('form') === null, 'no form to pay again').to.equal(true);
    expect(payRequests(calls)).to.equal(10);
    // The session view says the same once the page is loaded again.
    const again = await mountExisting(form.session);
    expect(message(again)).to.equal(said);
    expect(again.shadowRoot!.querySelector('form') === null).to.equal(true);
    // In the page's new language, as every message of the live region is.
    form.lang = 'de';
    await waitUntil(() => message(form) === 'Die Karte wurde abgelehnt, und es sind keine weiteren Versuche möglich. Bitte beginnen Sie von vorn.', `still says: ${message(form)}`);
  });

  it('says a decline in English words of its own when the companion gave none', async () => {
    const form = await mount();
    calls.restore();
    // The sandbox declines the card; the answer comes without the companion's words for it.
    calls = watchFetch((call, pass) =>
      call.url.endsWith('/pay') ? pass().then(async (answer) => json(answer.status, { ...(await answer.json()), message: undefined })) : undefined,
    );
    expect(await failureSaid(form, '4000000000000002')).to.equal('The payment was declined. Check the details or use another card.');
  });

  it('says a decline in the page\'s language: the companion words it in English, which a Ukrainian page does not show', async () => {
    const form = await mount({}, { lang: 'uk' });
    expect(await failureSaid(form, '4000000000000069')).to.equal('Платіж відхилено. Перевірте дані або спробуйте іншу картку.');
  });

  it('asks before leaving for 3-D Secure, then confirms the outcome when the page keeps the customer', async () => {
    const form = await mount();
    form.pollInterval = 50;
    // What the live region says as the page would go: where the customer is taken.
    let announced = '';
    form.addEventListener('pay-redirect', () => (announced = form.notice));
    const redirect = stay(form);
    await payWith(form, '4000000000003220');
    const event = await redirect;
    expect(announced).to.equal('Taking you to your bank to confirm the payment…');
    expect(event.cancelable).to.equal(true);
    expect(event.defaultPrevented).to.equal(true);
    expect(event.detail.reason).to.equal('3ds');
    expect(new URL(event.detail.url).origin, 'the sandbox origin, allowed in test mode').to.equal((await readView(form.session)).sandbox_origin);
    await form.updateComplete;
    expect(form.hasAttribute('processing')).to.equal(true);
    expect(message(form)).to.equal('Confirming your payment…');
    const success = oneEvent(form, 'pay-success');
    await decideChallenge(event.detail.url, 'success');
    await success;
  });

  it('shows the final result after the customer comes back from 3-D Secure', async () => {
    const session = await createSession();
    const first = await mount(session);
    const redirect = stay(first);
    await payWith(first, '4000000000003220');
    const { detail } = await redirect;
    first.remove();

    // Back on the merchant's page: a new form for the same session, while the payment is still pending.
    (document.activeElement as HTMLElement | null)?.blur();
    const form = await mountExisting(session);
    expect(form.hasAttribute('processing')).to.equal(true);
    expect(message(form)).to.equal('Confirming your payment…');
    await form.updateComplete;
    expect(document.activeElement, 'a page that loads confirming takes no focus (nor scrolls)').to.equal(document.body);
    expect(form.shadowRoot!.querySelector('.spinner')).not.to.equal(null);
    const heard: string[] = [];
    for (const type of ['pay-ready', 'pay-failure']) form.addEventListener(type, () => heard.push(type));
    // What a page that wires itself up on pay-ready finds: the button on offer, no outcome yet.
    const atReady = oneEvent(form, 'pay-ready').then(() => [busy(button(form)), message(form)]);
    const failure = oneEvent(form, 'pay-failure');
    await decideChallenge(detail.url, 'failure');
    const { message: text } = (await failure).detail;
    expect(text.length).to.be.greaterThan(0);
    // Declined: there is something to pay again, so the page hears the form is ready, then why.
    expect(heard).to.deep.equal(['pay-ready', 'pay-failure']);
    expect(await atReady).to.deep.equal([false, '']);
    await form.updateComplete;
    expect(message(form)).to.equal(text);
    expect(field(form, 'number').value, 'the form is back for another try').to.equal('');
    expect(form.hasAttribute('processing')).to.equal(false);
  });

  const typedBack = (form: PayForm) => Object.fromEntries(Object.keys(OLENA).map((name) => [name, field(form, name as FieldName).value]));

  /** A customer who typed their details on a session that asks for them, and paid with the challenge card: sent to the bank. */
  async function challengedAfterTyping(session: string, setUp: (form: PayForm) => void = () => undefined) {
    const first = await mount(session);
    setUp(first);
    for (const [name, value] of Object.entries(OLENA)) await type(field(first, name as FieldName), value);
    const redirect = stay(first);
    await payWith(first, '4000000000003220');
    return { first, url: (await redirect).detail.url };
  }

  /** Back on the merchant's page from a challenge that failed: a new form for the same session, payable again. */
  async function backFromFailedChallenge(first: PayForm, session: string, url: string): Promise<PayForm> {
    first.remove();
    const failure = decideChallenge(url, 'failure');
    const form = await mountExisting(session);
    await failure;
    await waitUntil(() => form.phase === 'ready' && !!form.shadowRoot!.querySelector('#fname'), 'not payable again', { timeout: 5000 });
    await form.updateComplete;
    return form;
  }

  it('finds the customer fields typed again when the customer comes back from a failed 3-D Secure, never the card', async () => {
    const session = await createSession({ customer: {} });
    const { first, url } = await challengedAfterTyping(session);
    const form = await backFromFailedChallenge(first, session, url);
    expect(typedBack(form)).to.deep.equal(OLENA);
    expect(field(form, 'number').value).to.equal('');
    expect(field(form, 'cvv').value).to.equal('');
    expect(sessionStorage.getItem(`payform:customer:${session}`), 'taken back once').to.equal(null);
  });

  it('keeps the customer fields typed through "Continue with your bank", which the waiting form shows without them', async () => {
    const session = await createSession({ customer: {} });
    const { first, url } = await challengedAfterTyping(session, (form) => {
      form.pollInterval = 50;
      form.pollTimeout = 300;
    });
    // Back from the bank's page without finishing: the form waits, offering to go on, with no field to read.
    await waitUntil(() => first.shadowRoot!.querySelectorAll('.outcome button').length === 2, 'no offer to go on', { timeout: 3000 });
    expect(first.shadowRoot!.querySelector('#fname')).to.equal(null);
    const again = stay(first);
    first.shadowRoot!.querySelectorAll<HTMLButtonElement>('.outcome button')[1]!.click();
    await again;
    const form = await backFromFailedChallenge(first, session, url);
    expect(typedBack(form)).to.deep.equal(OLENA);
  });

  it('keeps what was typed when the page moves it (a modal, a portal), and is not made ready again', async () => {
    const form = await mount();
    const readies = record(form, 'pay-ready');
    await type(field(form, 'number'), '4242 4242 4242 4242');
    const elsewhere = document.createElement('div');
    document.body.append(elsewhere);
    elsewhere.append(form);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await form.updateComplete;
    expect(field(form, 'number').value).to.equal('4242 4242 4242 4242');
    expect(readies, 'no second pay-ready').to.deep.equal([]);
    elsewhere.remove();
  });

  it('tells pay-ready for the session the page set last, not for one it replaced as that one showed', async () => {
    const [first, second] = await Promise.all([createSession({ amount: 1000 }), createSession({ amount: 2000 })]);
    const { form, amounts, views } = await movedAsReady(first, (form) => (form.session = second));
    try {
      await waitUntil(() => amounts.includes(2000), 'the second session never became ready');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(amounts).to.deep.equal([2000]);
      expect(button(form).textContent).to.match(/^Pay UAH\s20\.00$/);
    } finally {
      views.restore();
    }
  });

  it('tells pay-ready for a session the page set back to while the one it replaced it with loads', async () => {
    const [first, second] = await Promise.all([createSession({ amount: 1000 }), createSession({ amount: 2000 })]);
    // The page moves to the second session, whose view never comes, then back.
    const { form, amounts, views } = await movedAsReady(
      first,
      (form) => {
        form.session = second;
        setTimeout(() => (form.session = first));
      },
      second,
    );
    try {
      await waitUntil(() => amounts.length, 'the first session never became ready again');
      expect(amounts).to.deep.equal([1000]);
      expect(button(form).textContent).to.match(/^Pay UAH\s10\.00$/);
    } finally {
      views.restore();
    }
  });

  it('shows the session the page set while a payment was in flight; of that payment\'s answer, the page hears a success', async () => {
    const { form, paidOrder, heard, details, payments } = await switchedWhilePaying('4242424242424242');
    try {
      // The first session's answer has come; what the form makes of it, within a tenth of a second.
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The new session is shown as it is, and the page knows the order it replaced was paid.
      expect(heard).to.deep.equal(['pay-ready', 'pay-success']);
      expect(details['pay-success']!.orderId).to.equal(paidOrder);
      await showsTheNewSession(form);
    } finally {
      payments.restore();
    }
  });

  it('tells the page, by the old order, of a payment pending as it set another session, once that payment succeeds', async () => {
    // Pending as the companion answers: the sandbox settles this card 5 s later, by its own clock.
    const { form, paidOrder, heard, details, payments } = await switchedWhilePaying('4000000000000119');
    try {
      await advanceGatewayClock(5);
      await waitUntil(() => details['pay-success'], 'the page never heard that the order it replaced was paid', { timeout: 3000 });
      expect(details['pay-success']!.orderId).to.equal(paidOrder);
      // Said to the page alone: the form shows the new session, ready to pay.
      expect(heard).to.deep.equal(['pay-ready', 'pay-success']);
      await showsTheNewSession(form);
    } finally {
      payments.restore();
    }
  });

  it('tells the page, by the old order, of a payment in flight as it set another session whose answer was lost', async () => {
    // The companion takes the payment; its answer is lost on the way back.
    const { form, paidOrder, heard, details, payments } = await switchedWhilePaying('4242424242424242', { lost: true });
    try {
      await waitUntil(() => details['pay-error'], 'the page never heard of the payment whose outcome is unknown');
      expect(details['pay-error']).to.deep.equal({ code: 'network', message: 'Your payment is still being confirmed. Check again in a moment, and do not pay again.', orderId: paidOrder });
      // Said to the page alone: the form shows the new session, ready to pay.
      expect(heard).to.deep.equal(['pay-ready', 'pay-error']);
      await showsTheNewSession(form);
    } finally {
      payments.restore();
    }
  });

  it('shows the session the page set as the widget read the paying one again after a lost answer, and tells the page by the old order', async () => {
    const second = await createSession({ amount: 2000 });
    const form = await mount();
    const first = form.session;
    const paidOrder = form.view!.order_id;
    let reread!: () => void;
    const rereading = new Promise<void>((resolve) => (reread = resolve));
    // The companion takes the payment, its answer is lost on the way back; the session read again
    // after that (has it gone through?) answers only once the page has set another one.
    const payments = watchFetch((call, pass) =>
      call.url.endsWith('/pay') ? pass().then(() => Promise.reject(new TypeError('Failed to fetch'))) : readsSession(call, first) ? rereading.then(pass) : undefined,
    );
    try {
      const { heard, details } = outcomesHeard(form);
      await payWith(form, '4242424242424242');
      await waitUntil(() => payments.some((call) => readsSession(call, first)), 'the session was not read again');
      form.session = second;
      await waitUntil(() => heard.length, 'the second session never became ready');
      reread();
      await waitUntil(() => details['pay-error'], 'the page never heard of the payment whose outcome it did not learn');
      expect(details['pay-error']).to.deep.include({ code: 'network', orderId: paidOrder });
      // The paid session's view, read for the old payment, is not painted on the new session.
      expect(heard).to.deep.equal(['pay-ready', 'pay-error']);
      await showsTheNewSession(form);
    } finally {
      payments.restore();
    }
  });

  it('tells the page, by the order, of a payment whose answer was lost after the page took its session away', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const payments = watchFetch((call, pass) => (call.url.endsWith('/pay') ? held.then(pass).then(() => Promise.reject(new TypeError('Failed to fetch'))) : undefined));
    const logged = watchConsoleErrors();
    try {
      const form = await mount();
      const paidOrder = form.view!.order_id;
      // Not yet told that no session is set: the page's to set one.
      form.sessionWait = 60_000;
      const errors: PayEventDetails['pay-error'][] = [];
      form.addEventListener('pay-error', (event) => errors.push(event.detail));
      await payWith(form, '4242424242424242');
      await waitUntil(() => payRequests(payments) === 1, 'no payment was sent');
      // The page unsets the session (its cart emptied): the payment's request had it.
      form.session = '';
      answer();
      await waitUntil(() => errors.length, 'the page never heard of the payment whose outcome is unknown');
      expect(errors.map(({ code, orderId }) => ({ code, orderId }))).to.deep.equal([{ code: 'network', orderId: paidOrder }]);
      expect(logged, 'no session missing: the payment had one').to.deep.equal([]);
    } finally {
      logged.restore();
      payments.restore();
    }
  });

  it('shows a paid session as paid', async () => {
    const session = await createSession();
    const first = await mount(session);
    const success = oneEvent(first, 'pay-success');
    await payWith(first, '4242424242424242');
    await success;
    first.remove();
    const form = await mountExisting(session);
    expect(message(form)).to.equal('Payment successful');
    expect(form.shadowRoot!.querySelector('form')).to.equal(null);
  });

  it('says so when the merchant closed the session while the customer was typing, and after', async () => {
    const form = await mount();
    const errors = record(form, 'pay-error');
    await closeSession(form.session);
    autofill(form, card('4242424242424242'));
    button(form).click();
    await waitUntil(() => message(form) === 'This payment is no longer available.', 'not closed');
    // The page hears it too: its own spinner or summary must not wait on.
    expect(errors).to.deep.equal([{ code: 'closed', message: 'This payment is no longer available.' }]);
    expect(payRequests(calls), 'the companion refused the attempt').to.equal(1);
    expect(form.shadowRoot!.querySelector('form'), 'nothing left to pay with').to.equal(null);
    form.remove();
    const again = await mountExisting(form.session);
    expect(message(again)).to.equal('This payment is no longer available.');
    expect(again.shadowRoot!.querySelector('button')).to.equal(null);
  });

  it('confirms a payment that the gateway settles later (pending, then success)', async () => {
    const form = await mount();
    form.pollInterval = 50;
    const success = oneEvent(form, 'pay-success');
    const polls = (): number => calls.filter((call) => call.method === 'GET').length;
    await payWith(form, '4000000000000119');
    await waitUntil(() => message(form) === 'Confirming your payment…', 'no confirming state');
    expect(form.hasAttribute('processing')).to.equal(true);
    await waitUntil(() => polls() >= 3, 'it does not poll');
    expect(message(form), 'still pending at the gateway').to.equal('Confirming your payment…');
    // The sandbox settles this card 5 s later, by its own clock.
    await advanceGatewayClock(5);
    await success;
    await form.updateComplete;
    expect(message(form)).to.equal('Payment successful');
  });

  /** A challenge left open in a popup the page keeps: the form polls every 50 ms for 300 ms, then waits. Its reads so far. */
  async function challengeLeftOpen(): Promise<{ form: PayForm; challenge: string; polls: number }> {
    const form = await mount();
    form.pollInterval = 50;
    form.pollTimeout = 300;
    const redirect = stay(form);
    await payWith(form, '4000000000003220');
    const challenge = (await redirect).detail.url;
    await waitUntil(() => message(form).startsWith('Your payment is still being confirmed'), 'polling did not give up', { timeout: 3000 });
    return { form, challenge, polls: calls.length };
  }

  it('stops polling after its time limit and lets the customer check again', async () => {
    const { form, challenge, polls } = await challengeLeftOpen();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls.length, 'no polling after the limit').to.equal(polls);
    expect(form.hasAttribute('processing')).to.equal(false);
    await decideChallenge(challenge, 'success');
    const success = oneEvent(form, 'pay-success');
    button(form).click(); // "Check again"
    await success;
  });

  it('offers the challenge again once its time limit passed, as the page handles a redirect', async () => {
    const { form, challenge } = await challengeLeftOpen();
    await form.updateComplete;
    const buttons = [...form.shadowRoot!.querySelectorAll<HTMLButtonElement>('.outcome button')];
    expect(buttons.map((each) => each.textContent)).to.deep.equal(['Check again', 'Continue with your bank']);
    const again = stay(form);
    buttons[1]!.click();
    expect((await again).detail).to.deep.equal({ url: challenge, reason: '3ds' });
    // The page kept the customer (its popup): the words of waiting come back.
    expect(message(form)).to.match(/^Your payment is still being confirmed/);
    // The page opens another checkout: what loads offers nothing of the last one's challenge.
    form.session = await createSession();
    await form.updateComplete;
    expect(form.phase).to.equal('loading');
    expect([...form.shadowRoot!.querySelectorAll('button')].map((each) => each.textContent)).not.to.include('Continue with your bank');
  });

  it('goes on watching after its time limit, less often, and shows a failure without a click', async () => {
    const { form, challenge, polls } = await challengeLeftOpen();
    // Every 15 polls' time (750 ms here) rather than every 50 ms.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls.length, 'reads less often after the limit').to.equal(polls);
    const failure = oneEvent(form, 'pay-failure');
    await decideChallenge(challenge, 'failure');
    expect((await failure).detail.message).to.equal('The payment was not confirmed. Try again or use another card.');
    await form.updateComplete;
    expect(busy(button(form)), 'the customer may pay again').to.equal(false);
    expect(calls.length - polls, 'one read or two, not a poll every 50 ms').to.be.below(4);
  });

  it('pays with a saved card, and offers a new card instead', async () => {
    // A UUID: a random decimal (0.4111…) may be written like a card number, which customer_id refuses.
    const customer_id = `customer-${crypto.randomUUID()}`;
    const first = await mount({ customer_id });
    const paid = oneEvent(first, 'pay-success');
    await payWith(first, '5454545454545454');
    await paid;
    first.remove();

    const form = await mount({ customer_id });
    const radios = [...form.shadowRoot!.querySelectorAll<HTMLInputElement>('[type=radio]')];
    expect(radios.map((radio) => radio.parentElement!.textContent!.trim())).to.deep.equal(['Mastercard•••• 5454', 'A new card']);
    expect(radios[0]!.checked).to.equal(true);
    expect(form.shadowRoot!.querySelector('#number'), 'no card fields for a saved card').to.equal(null);
    expect(part(form, '[part=saved] [part=icon]').getAttribute('aria-label')).to.equal('Mastercard');
    radios[1]!.click();
    await form.updateComplete;
    expect(field(form, 'number')).not.to.equal(null);
    radios[0]!.click();
    await form.updateComplete;
    const success = oneEvent(form, 'pay-success');
    button(form).click();
    await success;
    const body = calls.filter((call) => call.url.endsWith('/pay')).at(-1)!.body as { card: { token: string } };
    expect(Object.keys(body.card)).to.deep.equal(['token']);
  });

  it('fills a sandbox test card from the test mode list', async () => {
    const form = await mount();
    await waitUntil(() => form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards');
    expect(part(form, '[part=banner]').textContent).to.equal('Test mode: no real money moves.');
    const entries = [...form.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=test-cards] button')];
    expect(entries.map((entry) => entry.textContent)).to.include('4000 0000 0000 32203-D Secure');
    entries.find((entry) => entry.textContent!.startsWith('3782'))!.click();
    await waitUntil(() => field(form, 'number').value === '3782 822463 10005', 'not filled');
    expect(field(form, 'cvv').value).to.equal('1234');
    expect(form.shadowRoot!.activeElement === button(form), 'focus on the pay button').to.equal(true);
  });

  it('shows a test card’s outcome in its own direction on a right-to-left page: 3-D Secure, not D Secure-3', async () => {
    const page = document.createElement('div');
    page.dir = 'rtl';
    document.body.append(page);
    try {
      const form = await mount({}, {}, 'pay-form', page);
      await waitUntil(() => form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards');
      form.shadowRoot!.querySelector('details')!.open = true;
      const entry = [...form.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=test-cards] button')].find((one) => one.textContent!.endsWith('3-D Secure'))!;
      // The outcome's text node: the button's last (Lit's markers are comments).
      const walker = document.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
      let text: Node | null = null;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent!.trim()) text = node;
      const at = (index: number) => {
        const range = document.createRange();
        range.setStart(text!, index);
        range.setEnd(text!, index + 1);
        return range.getBoundingClientRect().left;
      };
      // Read left to right as written: the 3 before the D.
      expect(at(0)).to.be.lessThan(at(2));
    } finally {
      page.remove();
    }
  });

  it('tells the page about each outcome with typed, bubbling, composed events', async () => {
    const seen: string[] = [];
    const listen = (event: Event): void => void seen.push(`${event.type}:${event.bubbles}:${event.composed}`);
    for (const type of ['pay-submit', 'pay-success'] as const) document.addEventListener(type, listen);
    const form = await mount();
    const success = oneEvent(form, 'pay-success');
    await payWith(form, '4242424242424242');
    await success;
    for (const type of ['pay-submit', 'pay-success'] as const) document.removeEventListener(type, listen);
    expect(seen).to.deep.equal(['pay-submit:true:true', 'pay-success:true:true']);
  });
});
