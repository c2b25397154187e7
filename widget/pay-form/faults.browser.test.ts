// What goes wrong, through the real companion and sandbox where they can make it (unknown session,
// rate limit, refused fields, live mode). Faults they never make — dropped connections, broken or
// malformed bodies, a 500 after the payment went through, hostile redirects — come from a fetch
// double in front of them; everything else the double passes on.
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayForm } from './pay-form.js';
import { advanceGatewayClock, createSession, decideChallenge, openCheckout, readView } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, errorText, field, json, message, mount, part, press, readsSession, record, stay, type FetchCall, watchConsoleErrors, watchFetch } from '../test/harness.js';

const isPay = (call: FetchCall): boolean => call.url.endsWith('/pay');

describe('<pay-form> when things go wrong', () => {
  let calls: ReturnType<typeof watchFetch> | undefined;
  afterEach(() => calls?.restore());

  /** A form for `session` whose loading fails: resolves with it and its pay-error. */
  async function failToLoad(session: string, pollInterval?: number): Promise<{ form: PayForm; code: string }> {
    const form = document.createElement('pay-form');
    form.session = session;
    if (pollInterval) form.pollInterval = pollInterval;
    const error = oneEvent(form, 'pay-error');
    await fixture(form);
    const { code } = (await error).detail;
    await form.updateComplete;
    return { form, code };
  }

  async function payThrough(form: PayForm, number = '4242424242424242'): Promise<void> {
    autofill(form, card(number));
    button(form).click();
  }

  it('after a dropped connection, checks the session, then offers a retry that pays once', async () => {
    const form = await mount();
    calls = watchFetch((call) => (isPay(call) ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    const error = oneEvent(form, 'pay-error');
    await payThrough(form);
    expect((await error).detail).to.deep.equal({ code: 'network', message: 'Could not reach the payment service. Please try again.' });
    expect(calls.map((call) => call.method), 'the session was read before a retry was allowed').to.deep.equal(['POST', 'GET']);
    await form.updateComplete;
    expect(busy(button(form))).to.equal(false);
    expect(message(form)).to.equal('Could not reach the payment service. Please try again.');
    calls.restore();
    const success = oneEvent(form, 'pay-success');
    button(form).click();
    await success;
  });

  it('when neither the answer nor the session comes back, confirms the payment rather than offer to pay again', async () => {
    const form = await mount();
    let views = 0;
    // The payment goes through, its answer is lost, and so is the session read after it.
    calls = watchFetch((call, pass) => (isPay(call) ? pass().then(() => Promise.reject(new TypeError('Failed to fetch'))) : call.method === 'GET' && views++ === 0 ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    const error = oneEvent(form, 'pay-error');
    await payThrough(form);
    expect((await error).detail).to.deep.equal({ code: 'network', message: 'Your payment is still being confirmed. Check again in a moment, and do not pay again.' });
    const success = oneEvent(form, 'pay-success');
    await form.updateComplete;
    expect(form.renderRoot.querySelector('#number'), 'no form to pay again with').to.equal(null);
    // The session is read again, and the payment shown for what it became.
    await success;
    expect(calls.filter(isPay).length).to.equal(1);
  });

  it('offers the 3-D Secure challenge at once when the answer that would have taken the customer there was lost', async () => {
    const form = await mount();
    // Read at once, not by polling; and the challenge it leaves waiting is read no more while
    // the tests after this one watch what their own forms ask.
    form.pollInterval = 60_000;
    // The payment reaches the gateway, which waits for the bank's challenge; its answer is lost.
    calls = watchFetch((call, pass) => (isPay(call) ? pass().then(() => Promise.reject(new TypeError('Failed to fetch'))) : undefined));
    await payThrough(form, '4000000000003220');
    // Not a minute of "Confirming your payment…" first: the customer never saw their bank's page.
    await waitUntil(() => message(form) === 'Your bank is waiting for you to confirm the payment.', `said: ${message(form)}`, { timeout: 3000 });
    expect(form.renderRoot.querySelector('#number'), 'no form to pay again with').to.equal(null);
    const redirect = stay(form);
    button(form).click();
    const { detail } = await redirect;
    expect(detail).to.deep.include({ url: (await readView(form.session)).challenge_url, reason: '3ds' });
    expect(calls.filter(isPay).length).to.equal(1);
    // Back from the bank (the form shown again reads the outcome at once), so the test ends with the
    // payment it started: taken out of the page pending, the form would read it in a later test.
    await decideChallenge(detail.url, 'success');
    const paid = oneEvent(form, 'pay-success');
    const page = form.parentElement!;
    form.remove();
    page.append(form);
    await paid;
  });

  it('a payment that never reached the companion, confirmed while the session could not be read, comes back said and as typed', async () => {
    const form = await mount({ customer: { lname: 'Kovalenko', phone: '+380671234567' } });
    form.pollInterval = 50;
    let views = 0;
    // The pay request is lost on its way, and so is the first read of the session after it.
    calls = watchFetch((call) => (isPay(call) || (call.method === 'GET' && views++ === 0) ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    autofill(form, { ...card('4242424242424242'), fname: 'Olena', email: 'olena@example.com' });
    const names = ['number', 'exp', 'cvv', 'fname', 'email'] as const;
    const typed = names.map((name) => field(form, name).value);
    expect(typed.every(Boolean)).to.equal(true);
    // Pressed as a customer does: the focus is in the form as its fields give way.
    button(form).focus();
    button(form).click();
    await waitUntil(() => message(form) === 'Your payment is still being confirmed. Check again in a moment, and do not pay again.' || message(form) === 'Confirming your payment…', 'not confirming');
    part(form, '[part=message]').focus();
    // The session reads open: nothing was paid.
    await waitUntil(() => form.renderRoot.querySelector('#number'), 'the form did not come back');
    await form.updateComplete;
    expect(message(form)).to.equal('No payment was taken. You can pay now.');
    // All but the security code, which is not held for as long as confirming may take.
    expect(names.map((name) => field(form, name).value)).to.deep.equal(typed.map((value, i) => (names[i] === 'cvv' ? '' : value)));
    expect(form.shadowRoot!.activeElement === button(form), 'the focus on the pay button, not the emptied message').to.equal(true);
    calls.restore();
    autofill(form, { cvv: '123' });
    const success = oneEvent(form, 'pay-success');
    button(form).click();
    await success;
  });

  it('after a 500 whose payment went through, shows the payment instead of a retry', async () => {
    const form = await mount();
    form.pollInterval = 50;
    // The companion took the payment (pending, then success) but its answer was lost in a 500.
    calls = watchFetch((call, pass) => (isPay(call) ? pass().then(() => json(500, { error: { code: 'internal', message: 'boom' } })) : undefined));
    const success = oneEvent(form, 'pay-success');
    const errors = record(form, 'pay-error');
    await payThrough(form, '4000000000000119');
    await waitUntil(() => form.hasAttribute('processing') && message(form) === 'Confirming your payment…', 'not confirming');
    await advanceGatewayClock(5); // the sandbox settles this card 5 s later
    await success;
    expect(errors).to.deep.equal([]);
    expect(calls.filter(isPay).length).to.equal(1);
  });

  it('says a 3-D Secure page the companion would not send the customer to, not "Confirming your payment…" for ever', async () => {
    const form = await mount();
    const refusal = { code: 'unsafe_redirect', message: 'The gateway’s 3-D Secure page address is not safe to open' };
    calls = watchFetch((call, pass) => (isPay(call) ? pass().then(() => json(502, { error: refusal })) : undefined));
    const errors = watchConsoleErrors();
    const error = oneEvent(form, 'pay-error');
    await payThrough(form, '4000000000003220');
    const { detail } = await error;
    errors.restore();
    await form.updateComplete;
    // Closed: the attempt waits at the gateway for that page, and another click would meet it again.
    expect([detail.code, form.phase, form.hasAttribute('processing')]).to.deep.equal(['unsafe_redirect', 'closed', false]);
    expect(detail.reason).to.match(/\/pay: The gateway’s 3-D Secure page address is not safe to open; the companion's log says which setting/);
    expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
    expect(message(form)).to.equal('This shop cannot accept this payment. Please contact the shop.');
    expect(form.shadowRoot!.querySelector('[part~=button]')).to.equal(null);
  });

  it('reads an answer it cannot parse as an unknown outcome', async () => {
    const form = await mount();
    calls = watchFetch((call, pass) => (isPay(call) ? pass().then(() => new Response('<html>Bad gateway</html>', { status: 200 })) : undefined));
    const success = oneEvent(form, 'pay-success');
    await payThrough(form);
    await success;
  });

  it('tells no decline of a card refused because another tab used up the session, only that it is closed', async () => {
    const form = await mount();
    // As the companion answers once ten declines elsewhere used up the session: the pay call
    // refused, and the session expired with the last decline's words.
    calls = watchFetch((call, pass) =>
      isPay(call)
        ? Promise.resolve(json(409, { error: { code: 'retry_unavailable', message: 'This checkout session cannot take another attempt; start a new checkout' } }))
        : readsSession(call, form.session)
          ? pass().then(async (answer) => json(200, { ...(await answer.json()), status: 'expired', message: 'The payment was declined. Try another card or contact your bank.' }))
          : undefined,
    );
    const heard: string[] = [];
    for (const type of ['pay-failure', 'pay-error']) form.addEventListener(type, () => heard.push(type));
    const closed = oneEvent(form, 'pay-error');
    await payThrough(form);
    expect((await closed).detail.code).to.equal('closed');
    await form.updateComplete;
    expect(message(form)).to.equal('This payment is no longer available.');
    expect(heard).to.deep.equal(['pay-error']);
  });

  it('closes on a payment to a session the companion no longer knows, rather than ask to try again', async () => {
    const form = await mount();
    // As a companion answers whose ledger lost the session (restarted on an in-memory one) while the form was open.
    calls = watchFetch((call) => (isPay(call) ? Promise.resolve(json(404, { error: { code: 'session_not_found', message: 'The checkout session was not found' } })) : undefined));
    const closed = oneEvent(form, 'pay-error');
    await payThrough(form);
    expect((await closed).detail).to.deep.equal({ code: 'closed', message: 'This payment is no longer available.' });
    await form.updateComplete;
    expect(message(form)).to.equal('This payment is no longer available.');
    expect(form.shadowRoot!.querySelector('[part~=button]'), 'no pay button to be refused again').to.equal(null);
  });

  it('reports a malformed answer when nothing was paid', async () => {
    const form = await mount();
    calls = watchFetch((call) => (isPay(call) ? Promise.resolve(json(200, { status: 'approved' })) : undefined));
    const error = oneEvent(form, 'pay-error');
    await payThrough(form);
    expect((await error).detail.code).to.equal('malformed');
    expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
  });

  for (const url of ['http://pay.example/3ds', 'javascript:alert(1)', '/relative/3ds', 'data:text/html,hi']) {
    it(`never follows a redirect to ${url}`, async () => {
      const form = await mount();
      calls = watchFetch((call) => (isPay(call) ? Promise.resolve(json(200, { status: 'redirect', redirect_url: url, order_id: 'o1' })) : undefined));
      const redirects = record(form, 'pay-redirect');
      const error = oneEvent(form, 'pay-error');
      await payThrough(form);
      expect((await error).detail.code).to.equal('unsafe_redirect');
      expect(redirects).to.deep.equal([]);
      expect(location.pathname).not.to.contain('3ds');
    });
  }

  // javascript: and data: URLs have the opaque origin "null": a view naming that as the sandbox's
  // must not make them look like the sandbox.
  for (const url of ['javascript:alert(1)', 'data:text/html,hi']) {
    it(`never follows ${url.split(':')[0]}: even when the view's sandbox origin is "null"`, async () => {
      calls = watchFetch((call, pass) => {
        if (isPay(call)) return Promise.resolve(json(200, { status: 'redirect', redirect_url: url, order_id: 'o1' }));
        if (call.method === 'GET' && /\/api\/checkout\/sessions\/[^/]+$/.test(call.url)) {
          return pass().then(async (answer) => json(200, { ...(await answer.json()), test: true, sandbox_origin: 'null' }));
        }
        return undefined;
      });
      const form = await mount();
      // Whichever comes first: the refusal, or a redirect (cancelled, so the test page stays).
      const outcome = Promise.race([oneEvent(form, 'pay-error').then((event) => event.detail.code), stay(form).then(() => 'followed')]);
      await payThrough(form);
      expect(await outcome).to.equal('unsafe_redirect');
    });
  }

  it('does not treat the sandbox origin as safe outside test mode', async () => {
    // A live-mode companion still wired to the sandbox hands out its challenge page; the widget refuses it.
    const form = await mount({ merchant: 'live' });
    expect(form.shadowRoot!.querySelector('[part=banner]'), 'no test banner').to.equal(null);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards').to.equal(null);
    const redirects = record(form, 'pay-redirect');
    const error = oneEvent(form, 'pay-error');
    const errors = watchConsoleErrors();
    await payThrough(form, '4000000000003220');
    const { detail } = await error;
    errors.restore();
    expect(detail.code).to.equal('unsafe_redirect');
    expect(redirects).to.deep.equal([]);
    // The developer is told which setting sends the customer nowhere; the challenge's address is not quoted whole.
    expect(detail.reason).to.match(/^the companion sent the customer to http:\/\/[\d.:]+, plain http, outside a test session \(PAYFORM_TEST_MODE off\): give it the gateway's https address/);
    expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
  });

  it('asks the customer to try again later when the companion rate limits the session', async () => {
    const form = await mount();
    // Someone tries card after card on this session: the companion takes 10 attempts a minute.
    for (let attempt = 0; attempt < 10; attempt++) {
      const refused = await fetch(`/api/checkout/sessions/${form.session}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).to.equal(400);
    }
    const error = oneEvent(form, 'pay-error');
    await payThrough(form);
    expect((await error).detail).to.deep.equal({ code: 'rate_limited', message: 'Too many attempts. Please try again later.' });
    await form.updateComplete;
    expect(busy(button(form)), 'the customer may try again later').to.equal(false);
    expect((await readView(form.session)).status, 'nothing was paid').to.equal('open');
  });

  it('points at the fields the companion refused', async () => {
    const form = await mount({ customer: {} });
    // Both pass the form's own checks but not the companion's: the gateway takes names of at most 256
    // characters, and addresses whose local part is at most 64. (A phone that is a card number the
    // form refuses itself, before anything is sent: customer/checks.test.ts.)
    autofill(form, { ...card('4242424242424242'), fname: 'O'.repeat(257), lname: 'K', email: `${'o'.repeat(65)}@example.com`, phone: '+380 50 123 4567' });
    const error = oneEvent(form, 'pay-error');
    button(form).click();
    expect((await error).detail.code).to.equal('rejected');
    await form.updateComplete;
    expect(errorText(form, 'number')).to.equal('');
    expect(errorText(form, 'fname')).to.equal('Check this value.');
    expect(errorText(form, 'email')).to.equal('Enter a valid email address.');
    expect(errorText(form, 'phone')).to.equal('');
    await waitUntil(() => form.shadowRoot!.activeElement === field(form, 'fname'), 'the first refused field is not focused');
    expect(busy(button(form))).to.equal(false);
  });

  it("says at the security code that the companion refused it, in the page's language", async () => {
    // A code of the brand's length passes the form's own check; the companion names it as its pay
    // request's field, or passes on the gateway's name for it.
    for (const [lang, name, words] of [
      ['en', 'card.cvv', 'The security code is invalid.'],
      ['de', 'card_cvv', 'Der Sicherheitscode ist ungültig.'],
    ] as const) {
      const form = await mount({}, { lang });
      calls = watchFetch((call) => (isPay(call) ? Promise.resolve(json(400, { error: { code: 'invalid_request', message: `${name}: refused`, fields: { [name]: 'refused' } } })) : undefined));
      try {
        const error = oneEvent(form, 'pay-error');
        await payThrough(form);
        expect((await error).detail.code).to.equal('rejected');
        await form.updateComplete;
        expect(errorText(form, 'cvv'), lang).to.equal(words);
        expect(errorText(form, 'number')).to.equal('');
        await waitUntil(() => form.shadowRoot!.activeElement === field(form, 'cvv'), 'the refused code is not focused');
        // Left as it is, the code stays refused, and the page is not told otherwise: only a new code clears it.
        const changes: unknown[] = [];
        form.addEventListener('pay-change', (event) => changes.push((event as CustomEvent).detail));
        field(form, 'number').focus();
        await form.updateComplete;
        expect(errorText(form, 'cvv'), `${lang}, once left`).to.equal(words);
        expect(changes, lang).to.deep.equal([]);
      } finally {
        calls.restore();
      }
    }
  });

  it('says the shop cannot take a payment in a currency the gateway project does not, and offers no retry', async () => {
    // The sandbox's project takes UAH, USD, EUR, PLN and XTS: the companion opens the session, the gateway refuses its payments.
    for (const [lang, words] of [
      ['en', 'This shop cannot accept this payment. Please contact the shop.'],
      ['uk', 'Магазин не може прийняти цей платіж. Зверніться до магазину.'],
    ] as const) {
      const form = await mount({ currency: 'GBP' }, { lang });
      const logged = watchConsoleErrors();
      try {
        const error = oneEvent(form, 'pay-error');
        await payThrough(form);
        const { detail } = await error;
        expect(detail.code, lang).to.equal('misconfigured');
        expect(detail.message, lang).to.equal(words);
        expect(detail.reason, lang).to.contain("the gateway refused the session's currency, GBP, which the gateway project does not take");
        expect(detail.reason, lang).to.contain('or enable GBP for it at the gateway');
        expect(logged, lang).to.deep.equal([`<pay-form>: ${detail.reason}`]);
        await form.updateComplete;
        expect(message(form), lang).to.equal(words);
        expect(form.renderRoot.querySelector('[part~=button]'), `${lang}: no pay button to try again with`).to.equal(null);
        expect(form.renderRoot.querySelector('#number'), `${lang}: no card fields`).to.equal(null);
      } finally {
        logged.restore();
      }
    }
  });

  it('says the same from the hosted pay button', async () => {
    const element = await mount({ currency: 'GBP' }, {}, 'pay-button');
    const logged = watchConsoleErrors();
    try {
      const error = oneEvent(element, 'pay-error');
      button(element).click();
      const { detail } = await error;
      expect(detail).to.include({ code: 'misconfigured', message: 'This shop cannot accept this payment. Please contact the shop.' });
      expect(detail.reason).to.contain('GBP');
      await element.updateComplete;
      expect(element.renderRoot.querySelector('[part~=button]'), 'no button to try again with').to.equal(null);
      expect(logged).to.deep.equal([`<pay-button>: ${detail.reason}`]);
    } finally {
      logged.restore();
    }
  });

  it('tells the developer which fields the companion refused when the form shows none of them', async () => {
    // Whatever their names: whether a refusal is the session's is the companion's to say (session_refused).
    for (const field of ['fingerprint.browserScreenWidth', 'browser_fingerprint']) {
      const form = await mount();
      calls = watchFetch((call) => (isPay(call) ? Promise.resolve(json(422, { error: { code: 'payment_rejected', message: 'The gateway refused the payment details', fields: { [field]: 'is required' } } })) : undefined));
      const logged = watchConsoleErrors();
      try {
        const error = oneEvent(form, 'pay-error');
        await payThrough(form);
        const { detail } = await error;
        expect(detail.code, field).to.equal('rejected');
        expect(detail.reason, field).to.equal(`the companion refused ${field}, which the customer cannot correct in the form: see the pay answer's error.fields`);
        expect(logged, field).to.deep.equal([`<pay-form>: ${detail.reason}`]);
        await form.updateComplete;
        expect(form.renderRoot.querySelector('[part~=button]'), `${field}: the form stays to pay again`).to.not.equal(null);
      } finally {
        logged.restore();
        calls.restore();
      }
    }
  });

  it('says the card has expired when the companion’s clock says so, not that the expiry is invalid', async () => {
    const form = await mount();
    calls = watchFetch((call) =>
      isPay(call) ? Promise.resolve(json(422, { error: { code: 'card_expired', message: 'The card has expired', fields: { 'card.exp_month': 'the card has expired' } } })) : undefined,
    );
    const error = oneEvent(form, 'pay-error');
    await payThrough(form);
    expect((await error).detail.code).to.equal('rejected');
    await form.updateComplete;
    expect(errorText(form, 'exp')).to.equal('This card has expired.');
    await waitUntil(() => form.shadowRoot!.activeElement === field(form, 'exp'), 'the expiry is not focused');
  });

  it('closes on the session refused for its own terms, naming the fields to the developer', async () => {
    const form = await mount();
    calls = watchFetch((call) => (isPay(call) ? Promise.resolve(json(422, { error: { code: 'session_refused', message: 'The gateway refuses what this checkout session asks', fields: { 'split[0].sub_merchant_id': 'is not a sub-merchant of this project' } } })) : undefined));
    const logged = watchConsoleErrors();
    try {
      const error = oneEvent(form, 'pay-error');
      await payThrough(form);
      const { detail } = await error;
      expect(detail).to.include({ code: 'misconfigured', message: 'This shop cannot accept this payment. Please contact the shop.' });
      expect(detail.reason).to.contain("the gateway refused the session's split[0].sub_merchant_id");
      expect(logged).to.deep.equal([`<pay-form>: ${detail.reason}`]);
      await form.updateComplete;
      expect(form.renderRoot.querySelector('[part~=button]'), 'no pay button to try again with').to.equal(null);
    } finally {
      logged.restore();
    }
  });

  it('turns into the hosted pay button when the session cannot be loaded', async () => {
    const session = await createSession();
    calls = watchFetch((call) => (call.method === 'GET' ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    // Its own re-read, half a pollInterval after failing, would show the card form once the reads
    // pass again: a loaded machine may take that long to click the hosted button.
    const { form, code } = await failToLoad(session, 60_000);
    expect(code).to.equal('network');
    expect(form.shadowRoot!.querySelector('form')).to.equal(null);
    expect(button(form).textContent).to.equal('Pay on the secure payment page');
    // Without an amount the words still read as a sentence's start, in every language.
    form.lang = 'de';
    await waitUntil(() => button(form).textContent === 'Auf der sicheren Zahlungsseite bezahlen', `German reads "${button(form).textContent}"`);
    form.lang = 'en';
    await waitUntil(() => button(form).textContent === 'Pay on the secure payment page', 'English again');
    calls.restore();
    const redirect = new Promise<CustomEvent>((resolve) => form.addEventListener('pay-redirect', (event) => (event.preventDefault(), resolve(event))));
    button(form).click();
    expect((await redirect).detail.reason).to.equal('hosted');
  });

  it('takes one dropped connection while loading for the connection, not a page set up wrong', async () => {
    const session = await createSession();
    let dropped = 0;
    calls = watchFetch((call) => (call.method === 'GET' && call.url.includes('/sessions/') && dropped++ === 0 ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    const { form, code } = await failToLoad(session);
    expect(code).to.equal('network');
    expect(button(form).textContent).to.equal('Pay on the secure payment page');
  });

  it('shows the form, not errors, when the hosted fallback is clicked once the companion answers and the session asks for details', async () => {
    const session = await createSession({ customer: {} });
    calls = watchFetch((call) => (call.method === 'GET' ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    // The form reads the session again by itself half a pollInterval after failing (1 s by
    // default): a loaded machine may take that long to press the key, and the read counted below
    // is the click's alone.
    const { form } = await failToLoad(session, 60_000);
    calls.restore();
    calls = watchFetch();
    const redirects = record(form, 'pay-redirect');
    const ready = oneEvent(form, 'pay-ready');
    button(form).focus();
    await press('Enter');
    await waitUntil(() => form.shadowRoot!.querySelector('input[name=email]'), 'the form did not show');
    // The button pressed went with the form that came: the focus is on its first field, not the page's start.
    await waitUntil(() => form.shadowRoot!.activeElement?.id === 'number', `the focus is on ${form.shadowRoot!.activeElement?.id ?? document.activeElement?.localName}`);
    expect((await ready).detail).to.include({ mode: 'direct', amount: 10050 });
    await form.updateComplete;
    // Every request of the page, not only this session's: no earlier test leaves a form reading.
    expect(calls.map((call) => call.method), 'only the session was read').to.deep.equal(['GET']);
    expect(calls[0]!.url).to.contain(session);
    expect(redirects).to.deep.equal([]);
    expect(message(form)).to.equal('');
    expect([...form.shadowRoot!.querySelectorAll('[aria-invalid=true]')]).to.deep.equal([]);
  });

  describe('on a page set up wrong', () => {
    let errors: ReturnType<typeof watchConsoleErrors>;
    beforeEach(() => (errors = watchConsoleErrors()));
    afterEach(() => errors.restore());

    /** A form at `endpoint` whose loading fails: its pay-error detail. */
    async function failAt(endpoint: string, session: string) {
      const form = document.createElement('pay-form');
      form.session = session;
      form.endpoint = endpoint;
      const error = oneEvent(form, 'pay-error');
      await fixture(form);
      const { detail } = await error;
      await form.updateComplete;
      return { form, detail };
    }

    it('says what an endpoint without the base path reached and what it expected; the customer sees a calm message', async () => {
      const session = await createSession();
      const { form, detail } = await failAt(`${location.origin}/not-the-companion`, session);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.message).to.equal('Something went wrong. Please try again in a moment.');
      expect(message(form)).to.equal(detail.message);
      expect(detail.reason).to.contain(`${location.origin}/not-the-companion/api/checkout/sessions/${session} answered HTTP 404`);
      expect(detail.reason).to.contain(`set <pay-form endpoint> (now "${location.origin}/not-the-companion") to the companion's address, its base path included`);
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
      // No hosted button either: it would go through the same wrong endpoint.
      expect(form.shadowRoot!.querySelector('button')).to.equal(null);
    });

    it("says the companion answered but takes its API under no path, when the endpoint has one it lacks", async () => {
      const { id, companion_url } = await openCheckout({ merchant: 'visa-mastercard' });
      const { form, detail } = await failAt(`${companion_url}/payments`, id);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.equal(
        `${companion_url}/payments/api/checkout/sessions/${id} reached the payform companion at ${companion_url}, but it answered HTTP 404 (no route): it has no checkout API under /payments; ` +
          `its basePath is none: set <pay-form endpoint> (now "${companion_url}/payments") to ${companion_url}, or, if your server hands it the requests under /payments, set its basePath to /payments`,
      );
      expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
    });

    it("says the endpoint leaves out the companion's base path when the companion answers at its origin", async () => {
      const { id, companion_url } = await openCheckout({ merchant: 'mounted' });
      const { origin } = new URL(companion_url);
      expect(companion_url).to.equal(`${origin}/payments`);
      const { detail } = await failAt(origin, id);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.equal(
        `${origin}/api/checkout/sessions/${id} reached the payform companion at ${origin}, but it answered HTTP 404 (no route): it has no checkout API under /; ` +
          `its basePath is /payments: set <pay-form endpoint> (now "${origin}") to ${origin}/payments, or, if your server hands it the requests under /, set its basePath to ''`,
      );
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
    });

    it("names the companion's address when the endpoint goes on past its base path (its script's address given)", async () => {
      const { id, companion_url } = await openCheckout({ merchant: 'mounted' });
      const { detail } = await failAt(`${companion_url}/widget/pay-form.js`, id);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.equal(
        `${companion_url}/widget/pay-form.js/api/checkout/sessions/${id} reached the payform companion at ${new URL(companion_url).origin}, but it answered HTTP 404 (no route): it has no checkout API under /payments/widget/pay-form.js; ` +
          `its basePath is /payments, and the endpoint has /widget/pay-form.js after it: set <pay-form endpoint> to ${companion_url}`,
      );
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
    });

    it('tells the developer of a body parser in front of the companion, in the words of its answer', async () => {
      const form = await mount();
      // What the companion answers when the shop's server read the pay request's body first (http/body-taken.ts).
      const fix = 'mount the companion before body parsers such as express.json()';
      calls = watchFetch((call) => (isPay(call) ? Promise.resolve(json(500, { error: { code: 'body_already_read', message: `The server read this request’s body before the payment companion could: ${fix}` } })) : undefined));
      const error = oneEvent(form, 'pay-error');
      await payThrough(form);
      const { detail } = await error;
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.contain(fix);
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
      await form.updateComplete;
      expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
    });

    it('names PAYFORM_ALLOWED_ORIGINS and the page origin when the companion refuses it', async () => {
      const { id, companion_url } = await openCheckout({ merchant: 'elsewhere' });
      const { form, detail } = await failAt(companion_url, id);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.contain(`add ${location.origin} to its PAYFORM_ALLOWED_ORIGINS (allowedOrigins)`);
      expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
      expect(form.shadowRoot!.querySelector('button')).to.equal(null);
    });

    it('names the session attribute when the companion has no such session; the customer sees the link is not valid', async () => {
      const { companion_url } = await openCheckout({ merchant: 'visa-mastercard' });
      const { form, detail } = await failAt(companion_url, 'cs_no-such-session');
      expect(detail.code).to.equal('rejected');
      expect(message(form)).to.equal('This payment link is not valid.');
      expect(detail.reason).to.contain(`${companion_url}/api/checkout/sessions/cs_no-such-session answered that there is no such checkout session: set <pay-form session>`);
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
    });

    it('says when the session or the endpoint was set with white space around it', async () => {
      const { companion_url, id: session } = await openCheckout();
      const spacedSession = await failAt(companion_url, ` ${session}\n`);
      expect(spacedSession.detail.reason).to.contain('(the one set has white space around it: set it without)');
      // Set in code from a number (a shop's own numeric id): said, where the diagnosis threw and nothing was.
      const numbered = await failAt(companion_url, 1842 as unknown as string);
      expect(numbered.detail.reason).to.contain('answered that there is no such checkout session: set <pay-form session>');
      expect(numbered.detail.reason).to.contain('(the one set is a number: set the id\'s text)');
      const spacedEndpoint = await failAt(` ${companion_url} `, session);
      expect(spacedEndpoint.detail.code).to.equal('misconfigured');
      expect(spacedEndpoint.detail.reason).to.equal(`endpoint " ${companion_url} " has white space around it: give <pay-form endpoint> without it`);
      // A line's end the browser drops from the address breaks nothing, and is not blamed.
      const form = document.createElement('pay-form');
      form.session = session;
      form.endpoint = `${companion_url}\n`;
      await fixture(form);
      await waitUntil(() => form.renderRoot.querySelector('#number'), 'the form never showed');
    });

    it('warns when the page, back from paying one session, shows another: the customer could pay twice', async () => {
      const paid = await createSession();
      const page = location.href;
      const warnings: string[] = [];
      const real = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
      try {
        // The return URL's query, as the companion's landing sends the customer back with it.
        history.replaceState(null, '', `?checkout_session=${paid}&order_id=o-1&status=success`);
        const same = await mount(paid);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(warnings, 'the returned session itself shows: nothing to say').to.deep.equal([]);
        same.remove();
        const fresh = await mount();
        await waitUntil(() => warnings.length > 0, 'no warning');
        expect(warnings).to.deep.equal([
          `<pay-form>: this page is back from paying checkout session ${paid} (status success), but shows session ${fresh.session}: ` +
            'on a page the customer returns to, show the session its checkout_session names rather than open another, or the customer may pay twice',
        ]);
      } finally {
        console.warn = real;
        history.replaceState(null, '', page);
      }
    });

    it('says an endpoint without its scheme is no address', async () => {
      const session = await createSession();
      const { detail } = await failAt('127.0.0.1:1', session);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.equal('endpoint "127.0.0.1:1" is not an address: give <pay-form endpoint> with its scheme (for example http://127.0.0.1:1)');
      // A host name first reads as a scheme (`localhost:`): nothing answers, and it is no outage either.
      const named = await failAt('localhost:1', session);
      expect(named.detail.code).to.equal('misconfigured');
      expect(named.detail.reason).to.equal('endpoint "localhost:1" is not an address: give <pay-form endpoint> with its scheme (for example http://localhost:1)');
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`, `<pay-form>: ${named.detail.reason}`]);
    });

    it('takes an endpoint given as a URL object, and names one that is no address at all', async () => {
      // `endpoint={new URL('/payments', shopOrigin)}`: once a TypeError, told the customer as the server's error, and the developer nothing.
      const { companion_url, id: session } = await openCheckout({ merchant: 'visa-mastercard' });
      const form = document.createElement('pay-form');
      form.session = session;
      form.endpoint = new URL(companion_url) as unknown as string;
      const ready = oneEvent(form, 'pay-ready');
      await fixture(form);
      await ready;
      const { detail } = await failAt({ port: 3000 } as unknown as string, session);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.match(/^endpoint "\[object Object\]" is not an address: give <pay-form endpoint> with its scheme/);
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
    });

    it('names the endpoint on the console when nothing answers there; the customer hears it is tried again', async () => {
      const warnings: string[] = [];
      const real = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
      try {
        // Port 9 (discard): nothing listens there.
        const { form, detail } = await failAt('http://127.0.0.1:9', await createSession());
        expect(detail.code).to.equal('network');
        // As a companion down for a moment would be (companion-away.browser.test.ts).
        expect(message(form)).to.equal('Could not reach the payment service. Trying again…');
        expect(warnings).to.deep.equal(["<pay-form>: nothing answered at http://127.0.0.1:9: if the connection is up, allow http://127.0.0.1:9 in the page's Content-Security-Policy connect-src, or set <pay-form endpoint> to where the payform companion runs"]);
      } finally {
        console.warn = real;
      }
    });

    it('names the session attribute when the page never sets one, instead of loading forever', async () => {
      calls = watchFetch();
      const form = document.createElement('pay-form');
      form.sessionWait = 100;
      const error = oneEvent(form, 'pay-error');
      await fixture(form);
      expect(message(form), 'a session may still come').to.equal('');
      expect(part(form, '.outcome').textContent).to.equal('Loading…');
      const { detail } = await error;
      await form.updateComplete;
      // No session asked for: no 404 of an empty id in the console and the companion's log.
      expect(calls.map(({ url }) => url)).to.deep.equal([]);
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.contain('no checkout session was set: set <pay-form session>');
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
      expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
      expect(form.shadowRoot!.querySelector('button')).to.equal(null);
      // The page sets it after all: the form shows.
      const ready = oneEvent(form, 'pay-ready');
      form.session = await createSession();
      await ready;
      expect(message(form)).to.equal('');
    });

    it('names the session attribute when a framework leaves it undefined or null, never as a session of that name', async () => {
      // React's `session={order?.session}`, Vue's `:session="id"` and `searchParams.get()` before the server answered.
      for (const unset of [undefined, null]) {
        const form = document.createElement('pay-form');
        form.sessionWait = 100;
        form.session = unset as unknown as string;
        const error = oneEvent(form, 'pay-error');
        await fixture(form);
        const { detail } = await error;
        expect(detail.code, String(unset)).to.equal('misconfigured');
        expect(detail.reason).to.contain('no checkout session was set: set <pay-form session>');
        expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
      }
    });

    it('takes a sessionWait the page changes while it waits, shorter or longer', async () => {
      // Shorter: the element began waiting the default 10 s, and says so after the new wait.
      const form = document.createElement('pay-form');
      const error = oneEvent(form, 'pay-error');
      await fixture(form);
      form.sessionWait = 200;
      const told = await Promise.race([error.then(({ detail }) => detail.code), new Promise((resolve) => setTimeout(resolve, 3000, 'nothing within 3 s'))]);
      expect(told).to.equal('misconfigured');
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain('no checkout session was set: set <pay-form session>');
      // Longer: past the wait it began with it says nothing, and the session the page sets then loads the form.
      const late = document.createElement('pay-form');
      late.sessionWait = 200;
      const failures = record(late, 'pay-error');
      await fixture(late);
      late.sessionWait = 10_000;
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(failures).to.deep.equal([]);
      const ready = oneEvent(late, 'pay-ready');
      late.session = await createSession();
      await ready;
      expect(failures).to.deep.equal([]);
      expect(errors).to.have.length(1);
    });

    it('offers no form to pay a session the page took away, and shows the one it sets next', async () => {
      // A cart re-priced: Vue's `sessionId.value = null`, React's `session={undefined}` while the server answers.
      const form = await mount();
      form.sessionWait = 60_000;
      const submits = record(form, 'pay-submit');
      form.session = '';
      await form.updateComplete;
      expect(form.shadowRoot!.querySelector('button'), 'a pay button for no session').to.equal(null);
      expect(part(form, '.outcome').textContent).to.equal('Loading…');
      expect(submits).to.deep.equal([]);
      const ready = oneEvent(form, 'pay-ready');
      form.session = await createSession();
      await ready;
      expect(form.shadowRoot!.querySelector('button')).to.not.equal(null);
    });

    it('waits for a session the page sets late, and says nothing of it', async () => {
      const session = await createSession();
      const form = document.createElement('pay-form');
      form.sessionWait = 300;
      const failures = record(form, 'pay-error');
      await fixture(form);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ready = oneEvent(form, 'pay-ready');
      form.session = session;
      await ready;
      // Past the wait begun before the session came.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(failures).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    });
  });

  it('says so when the session does not exist', async () => {
    const { form, code } = await failToLoad('cs_no-such-session');
    expect(code).to.equal('rejected');
    expect(message(form)).to.equal('This payment link is not valid.');
    expect(form.shadowRoot!.querySelector('button')).to.equal(null);
  });

  it('falls back to the hosted button for a session view it cannot read', async () => {
    const session = await createSession();
    calls = watchFetch((call) => (call.method === 'GET' ? Promise.resolve(json(200, { id: session, amount: 100.5, currency: 'UAH' })) : undefined));
    const { form, code } = await failToLoad(session);
    expect(code).to.equal('malformed');
    expect(part(form, '[part=button]').textContent).to.equal('Pay on the secure payment page');
  });

  it('takes a session view without its order id as one it cannot read: every outcome event names the order', async () => {
    const session = await createSession();
    calls = watchFetch((call, pass) =>
      readsSession(call, session) ? pass().then(async (answer) => json(answer.status, { ...(await answer.json()), order_id: undefined })) : undefined,
    );
    const { code } = await failToLoad(session);
    expect(code).to.equal('malformed');
  });
});
