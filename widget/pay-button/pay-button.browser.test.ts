import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { advanceGatewayClock, createSession, openCheckout, readView } from '../test/checkout-fixture.js';
import { collectFingerprint } from '../checkout/fingerprint.js';
import type { PayEventDetails } from '../events.js';
import { autofill, busy, button, card, field, json, message, mount, part, stay, watchConsoleErrors, watchFetch, yearAhead } from '../test/harness.js';

/** Pays `session` by card through the companion, as the customer's attempt on the hosted page would: `number` decides how it ends. */
async function payBy(session: string, number: string): Promise<string> {
  const response = await fetch(`/api/checkout/sessions/${session}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card: { number, exp_month: 12, exp_year: 2000 + Number(yearAhead(3)), cvv: '123' }, fingerprint: collectFingerprint() }),
  });
  return ((await response.json()) as { status: string }).status;
}

type PayEvent = keyof PayEventDetails;
const PAY_EVENTS: PayEvent[] = ['pay-ready', 'pay-redirect', 'pay-success', 'pay-failure', 'pay-error'];

/** The pay events `target` dispatches from now on, in order, by type. */
function heard(target: EventTarget): PayEvent[] {
  const types: PayEvent[] = [];
  for (const type of PAY_EVENTS) target.addEventListener(type, () => types.push(type));
  return types;
}

/**
 * A `<pay-button>` whose hosted page is this very document (a hash of its address, which the
 * session view names the sandbox's origin), so that its click leaves as it would and the test page
 * stays; `comeBack()` is what Back from the hosted page fires when the browser kept the page
 * whole in its back/forward cache (which headless Chromium has not): `pagehide`, then `pageshow`,
 * both `persisted`.
 */
async function leaving(session: string) {
  const here = location.href.split('#')[0]!;
  const calls = watchFetch((call, pass) => {
    if (call.url.endsWith('/hosted')) return Promise.resolve(json(200, { redirect_url: `${here}#hosted-page` }));
    if (call.method !== 'GET') return undefined;
    return pass().then(async (response) => json(response.status, { ...(await response.json()), sandbox_origin: location.origin }));
  });
  const payButton = await mount(session, {}, 'pay-button');
  return {
    payButton,
    comeBack() {
      for (const type of ['pagehide', 'pageshow']) dispatchEvent(new PageTransitionEvent(type, { persisted: true }));
    },
    restore() {
      calls.restore();
      history.replaceState(null, '', here);
    },
  };
}

describe('hosted checkout', () => {
  it('<pay-form mode="hosted"> is only the pay button, which leaves for the hosted page when the page lets it', async () => {
    const form = await mount({}, { mode: 'hosted' });
    expect(form.shadowRoot!.querySelector('form')).to.equal(null);
    expect(button(form).textContent).to.match(/^Pay UAH\s100\.50 on the secure payment page$/);
    const redirect = stay(form);
    button(form).click();
    const event = await redirect;
    expect(event.detail.reason).to.equal('hosted');
    expect(new URL(event.detail.url).origin, "the sandbox's hosted page").to.equal((await readView(form.session)).sandbox_origin);
    await form.updateComplete;
    expect(busy(button(form)), 'cancelled: the button is back').to.equal(false);
  });

  it('<pay-button> beside the form is disabled, and says so, while the form pays and confirms, then shows the payment the page heard once', async () => {
    const form = await mount();
    form.pollInterval = 50;
    const payButton = await mount(form.session, {}, 'pay-button');
    const errors: unknown[] = [];
    payButton.addEventListener('pay-error', (event) => errors.push((event as CustomEvent).detail));
    const paid = oneEvent(form, 'pay-success');
    const buttonTold = heard(payButton);
    autofill(form, card('4000000000000119')); // pending, settled 5 s of gateway time later
    button(form).click();
    await form.updateComplete;
    await payButton.updateComplete;
    const held = () => [busy(button(payButton)), button(payButton).textContent, payButton.hasAttribute('processing')];
    expect(held(), 'while the form pays').to.deep.equal([true, 'Processing payment…', true]);
    await waitUntil(() => message(form) === 'Confirming your payment…', 'the card payment is not pending');
    await payButton.updateComplete;
    expect(held(), 'while the form confirms').to.deep.equal([true, 'Processing payment…', true]);
    await advanceGatewayClock(5);
    await paid;
    await payButton.updateComplete;
    expect(payButton.shadowRoot!.querySelector('button'), 'paid: no button').to.equal(null);
    expect(message(payButton)).to.equal('Payment successful');
    expect(buttonTold, 'the page hears the payment from the form alone').to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });

  it('<pay-button> beside the form is ready again when the form\'s payment is declined', async () => {
    const form = await mount();
    const payButton = await mount(form.session, {}, 'pay-button');
    const declined = oneEvent(form, 'pay-failure');
    autofill(form, card('4000000000000002'));
    button(form).click();
    await form.updateComplete;
    await payButton.updateComplete;
    expect(busy(button(payButton)), 'while the form pays').to.equal(true);
    await declined;
    await payButton.updateComplete;
    expect(busy(button(payButton))).to.equal(false);
    expect(button(payButton).textContent).to.match(/^Pay UAH\s100\.50 on the secure payment page$/);
    expect(message(payButton), 'the decline is the form\'s to say').to.equal('');
  });

  it('<pay-button> clicked while another page pays the session shows that payment, not an error', async () => {
    const payButton = await mount({}, {}, 'pay-button');
    payButton.pollInterval = 50;
    // The customer's other tab pays by card: pending, settled 5 s of gateway time later.
    const response = await fetch(`/api/checkout/sessions/${payButton.session}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ card: { number: '4000000000000119', exp_month: 12, exp_year: 2000 + Number(yearAhead(3)), cvv: '123' }, fingerprint: collectFingerprint() }),
    });
    expect((await response.json()).status).to.equal('pending');
    const errors: unknown[] = [];
    payButton.addEventListener('pay-error', (event) => errors.push((event as CustomEvent).detail));
    const buttonPaid = oneEvent(payButton, 'pay-success');
    button(payButton).click();
    await waitUntil(() => message(payButton) === 'Confirming your payment…', 'the button does not show the payment');
    await advanceGatewayClock(5);
    await buttonPaid;
    expect(errors).to.deep.equal([]);
  });

  it('<pay-button> the customer comes back to after a decline says pay-ready first, then pay-failure', async () => {
    const session = await createSession();
    expect(await payBy(session, '4000000000000002')).to.equal('failure');
    const payButton = document.createElement('pay-button');
    payButton.session = session;
    const events = heard(payButton);
    // What a page that wires itself up on pay-ready finds: the button on offer, no outcome yet.
    const atReady = oneEvent(payButton, 'pay-ready').then(() => [busy(button(payButton)), message(payButton)]);
    const failure = oneEvent(payButton, 'pay-failure');
    await fixture(payButton);
    expect((await failure).detail.message).to.equal('The payment was declined. Try another card or contact your bank.');
    expect(events).to.deep.equal(['pay-ready', 'pay-failure']);
    expect(await atReady).to.deep.equal([false, '']);
    await payButton.updateComplete;
    expect(message(payButton)).to.equal('The payment was declined. Try another card or contact your bank.');
  });

  it('<pay-button> back from the hosted page in the back/forward cache tells only what happened there, once', async () => {
    const session = await createSession();
    const { payButton, comeBack, restore } = await leaving(session);
    try {
      const events = heard(payButton);
      const left = oneEvent(payButton, 'pay-redirect');
      button(payButton).click();
      expect((await left).detail.url).to.match(/#hosted-page$/);
      // On the hosted page, the customer's card is declined; then Back.
      expect(await payBy(session, '4000000000000002')).to.equal('failure');
      const failure = oneEvent(payButton, 'pay-failure');
      comeBack();
      await failure;
      await payButton.updateComplete;
      expect(message(payButton)).to.equal('The payment was declined. Try another card or contact your bank.');
      // The page heard pay-ready for this session as it loaded: not again.
      expect(events).to.deep.equal(['pay-redirect', 'pay-failure']);
    } finally {
      restore();
    }
  });

  it('<pay-button> back from the hosted page in the back/forward cache has the focus on the button pressed', async () => {
    const { payButton, comeBack, restore } = await leaving(await createSession());
    try {
      const events = heard(payButton);
      const left = oneEvent(payButton, 'pay-redirect');
      button(payButton).focus();
      await sendKeys({ press: 'Enter' });
      await left;
      comeBack();
      // The session is read again first: the button is not there while it loads, then has the focus again.
      const pressable = () => payButton.shadowRoot!.activeElement?.matches('[part~=button]:not([aria-disabled=true])') ?? false;
      await waitUntil(pressable, 'the focus stayed on the page\'s start');
      expect(busy(button(payButton))).to.equal(false);
      expect(message(payButton)).to.equal('');
      expect(events, 'nothing happened on the hosted page: nothing to tell').to.deep.equal(['pay-redirect']);
    } finally {
      restore();
    }
  });

  it('<pay-button> whose page never left for the hosted page (stopped, or the customer stayed) is pressable again, and goes there', async () => {
    const { payButton, restore } = await leaving(await createSession());
    try {
      const left = oneEvent(payButton, 'pay-redirect');
      button(payButton).focus();
      await sendKeys({ press: 'Enter' });
      await left;
      // A hash of this page's address: the document stays, and hears no pagehide, as when the
      // customer stops the navigation or stays on the shop's "Leave site?" prompt.
      await waitUntil(() => !busy(button(payButton)), 'still processing, its button disabled', { timeout: 13_000 });
      expect(message(payButton)).to.equal('');
      expect(payButton.shadowRoot!.activeElement, 'the focus on the button pressed').to.equal(button(payButton));
      const again = oneEvent(payButton, 'pay-redirect');
      button(payButton).click();
      expect((await again).detail.url).to.match(/#hosted-page$/);
    } finally {
      restore();
    }
  }).timeout(20_000);

  it('is what <pay-form> shows when the session allows hosted checkout only', async () => {
    const ready = await (async () => {
      const form = document.createElement('pay-form');
      form.session = await createSession({ modes: ['hosted'] });
      const event = oneEvent(form, 'pay-ready');
      await fixture(form);
      return { form, detail: (await event).detail };
    })();
    expect(ready.detail).to.deep.equal({ mode: 'hosted', test: true, amount: 10050, currency: 'UAH' });
    expect(ready.form.shadowRoot!.querySelector('input')).to.equal(null);
  });

  it('<pay-form mode="hosted"> asks for the customer details the hosted page needs, checks them and sends them', async () => {
    // The session knows no e-mail or phone, which the gateway's hosted page requires.
    const form = await mount({ customer: { fname: 'Olena', lname: 'Kovalenko' } }, { mode: 'hosted' });
    expect([...form.shadowRoot!.querySelectorAll('input')].map((input) => input.name)).to.deep.equal(['email', 'phone']);
    const calls = watchFetch();
    try {
      button(form).click();
      await form.updateComplete;
      expect(message(form)).to.equal('Check the highlighted fields.');
      expect(calls, 'nothing sent before the fields are right').to.deep.equal([]);
      autofill(form, { email: 'olena@example.com', phone: '+38 (067) 123-45-67' });
      const redirect = stay(form);
      button(form).click();
      expect((await redirect).detail.reason).to.equal('hosted');
      expect(calls.map((call) => [call.url.replace(/^.*\/sessions\/[^/]+/, ''), call.body])).to.deep.equal([
        ['/hosted', { customer: { email: 'olena@example.com', phone: '+38 (067) 123-45-67' }, page_url: location.href }],
      ]);
    } finally {
      calls.restore();
    }
  });

  it('<pay-form mode="hosted"> goes to the hosted page on Enter in a field, as the form\'s own button', async () => {
    const form = await mount({ customer: { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com' } }, { mode: 'hosted' });
    expect(button(form).type).to.equal('submit');
    autofill(form, { phone: '+380671234567' });
    field(form, 'phone').focus();
    const redirect = stay(form);
    await sendKeys({ press: 'Enter' });
    expect((await redirect).detail.reason).to.equal('hosted');
  });

  it('<pay-button> names what a session without the customer details lacks for the hosted page, and offers the button no more', async () => {
    const errors = watchConsoleErrors();
    try {
      const payButton = await mount({ customer: {} }, {}, 'pay-button');
      const error = oneEvent(payButton, 'pay-error');
      button(payButton).focus();
      await sendKeys({ press: 'Enter' });
      const { detail } = await error;
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.contain("the gateway's hosted page needs the customer's email and phone: open the session with them");
      expect(errors).to.deep.equal([`<pay-button>: ${detail.reason}`]);
      await payButton.updateComplete;
      // Not "try again": nothing the customer does can pay this session.
      expect(message(payButton)).to.equal('This shop cannot accept this payment. Please contact the shop.');
      // No button left to click again: it could only be refused again.
      expect(payButton.shadowRoot!.querySelector('button'), 'no button').to.equal(null);
      // Focus went with the button: it is on the message, not the page's start.
      await waitUntil(() => payButton.shadowRoot!.activeElement === part(payButton, '[part=message]'), 'focus was lost with the button');
    } finally {
      errors.restore();
    }
  });

  it('<pay-button> pays a session on the hosted page', async () => {
    const payButton = await mount({ amount: 2500, currency: 'EUR' }, {}, 'pay-button');
    expect(button(payButton).textContent).to.equal('Pay €25.00 on the secure payment page');
    const redirect = stay(payButton);
    button(payButton).click();
    expect((await redirect).detail.reason).to.equal('hosted');
    expect(payButton.shadowRoot!.querySelector('[part=banner]')?.textContent).to.equal('Test mode: no real money moves.');
    // The page kept the customer: nothing is processing any more, and the button has the focus back.
    await waitUntil(() => !busy(button(payButton)), 'the button stayed disabled');
    await payButton.updateComplete;
    expect(message(payButton)).to.equal('');
    expect(payButton.shadowRoot!.activeElement).to.equal(button(payButton));
  });

  it('<pay-button> given another session while its hosted page is asked for shows that one, and opens not the old page nor says its error', async () => {
    const here = location.href.split('#')[0]!;
    for (const answered of [json(200, { redirect_url: `${here}#hosted-page` }), json(503, { error: { code: 'gateway_unavailable', message: 'The gateway is not answering' } })]) {
      const second = await createSession({ amount: 2000, currency: 'EUR' });
      let answer!: () => void;
      const held = new Promise<void>((resolve) => (answer = resolve));
      const calls = watchFetch((call, pass) => {
        if (call.url.endsWith('/hosted')) return held.then(() => answered);
        if (call.method !== 'GET') return undefined;
        // The hosted page above is on an origin the view names as the gateway's.
        return pass().then(async (response) => json(response.status, { ...(await response.json()), sandbox_origin: location.origin }));
      });
      try {
        const payButton = await mount({ amount: 2500, currency: 'EUR' }, {}, 'pay-button');
        const events = heard(payButton);
        void stay(payButton);
        button(payButton).click();
        await waitUntil(() => calls.some((call) => call.url.endsWith('/hosted')), 'the hosted page was never asked for');
        payButton.session = second;
        await waitUntil(() => events.includes('pay-ready'), 'the second session never became ready');
        answer();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await payButton.updateComplete;
        expect(events, `after ${answered.status}`).to.deep.equal(['pay-ready']);
        expect(button(payButton).textContent).to.equal('Pay €20.00 on the secure payment page');
        expect([busy(button(payButton)), message(payButton)]).to.deep.equal([false, '']);
      } finally {
        calls.restore();
        history.replaceState(null, '', here);
      }
    }
  });

  it('is told apart from the form’s own pay button when a page offers both', async () => {
    const session = await createSession({});
    const [form, payButton] = [document.createElement('pay-form'), document.createElement('pay-button')];
    const ready = Promise.all([form, payButton].map((element) => ((element.session = session), oneEvent(element, 'pay-ready'))));
    (await fixture(html`<div></div>`)).append(form, payButton);
    await ready;
    await Promise.all([form.updateComplete, payButton.updateComplete]);
    const names = [button(form).textContent, button(payButton).textContent];
    expect(names[0]).to.match(/^Pay UAH\s100\.50$/);
    expect(names[1]).to.match(/^Pay UAH\s100\.50 on the secure payment page$/);
  });

  describe('bound for the hosted page of a session that does not allow it', () => {
    let errors: ReturnType<typeof watchConsoleErrors>;
    let warnings: string[];
    let realWarn: typeof console.warn;
    beforeEach(() => {
      errors = watchConsoleErrors();
      warnings = [];
      realWarn = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    });
    afterEach(() => {
      errors.restore();
      console.warn = realWarn;
    });

    /**
     * A `<pay-form>` or `<pay-button>` with `attributes`, for a session that allows direct payment
     * only, once it told the page it is ready or that it cannot be paid: the events it dispatched,
     * the `pay-error` detail, and every request but the session's reading.
     */
    async function refused(attributes: Record<string, string>, tag: 'pay-form' | 'pay-button' = 'pay-form') {
      const element = document.createElement(tag);
      element.session = await createSession({ modes: ['direct'] });
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      const told = heard(element);
      const error = oneEvent(element, 'pay-error');
      const calls = watchFetch();
      try {
        await fixture(element);
        await Promise.race([error, oneEvent(element, 'pay-ready')]);
        expect(told, 'never ready: every click would be refused').to.deep.equal(['pay-error']);
        const { detail } = await error;
        await element.updateComplete;
        return { element, detail, posted: calls.filter((call) => call.method !== 'GET') };
      } finally {
        calls.restore();
      }
    }

    /** What the customer is left with: the shop cannot take it, not "try again", and no button to click. */
    function closed(element: Element, detail: PayEventDetails['pay-error']) {
      expect(detail).to.include({ code: 'misconfigured', message: 'This shop cannot accept this payment. Please contact the shop.' });
      expect(message(element)).to.equal(detail.message);
      expect(element.shadowRoot!.querySelector('button'), 'no button').to.equal(null);
      expect(errors).to.deep.equal([`<${element.localName}>: ${detail.reason}`]);
    }

    it('<pay-form mode="hosted"> tells the developer as the session is read, and offers no button', async () => {
      const { element, detail, posted } = await refused({ mode: 'hosted' });
      expect(detail.reason).to.equal(
        'this checkout session does not allow hosted payment (its modes: direct): open it with "hosted" in modes (POST /api/checkout/sessions), or leave out mode="hosted" for the form to pay by card',
      );
      closed(element, detail);
      expect(posted, 'nothing sent').to.deep.equal([]);
      expect(warnings).to.deep.equal([]);
    });

    it('<pay-button> tells the developer as the session is read, and offers no button', async () => {
      const { element, detail, posted } = await refused({}, 'pay-button');
      expect(detail.reason).to.equal(
        'this checkout session does not allow hosted payment (its modes: direct): open it with "hosted" in modes (POST /api/checkout/sessions), or use <pay-form>, which pays by card',
      );
      closed(element, detail);
      expect(posted, 'nothing sent').to.deep.equal([]);
    });

    it('<pay-form> with a mode that is no mode says so too, and which mode to leave out', async () => {
      const { element, detail } = await refused({ mode: 'redirect' });
      expect(detail.reason).to.equal(
        'this checkout session does not allow hosted payment (its modes: direct): open it with "hosted" in modes (POST /api/checkout/sessions), or leave out mode="redirect" for the form to pay by card',
      );
      closed(element, detail);
      expect(warnings).to.deep.equal([
        '<pay-form>: mode="redirect" is not a mode: <pay-form mode> is "hosted" (the gateway\'s hosted page), or "direct" or left out (the card form, when the session allows it); until then the form pays on the hosted page, as with "hosted"',
      ]);
    });
  });

  it('<pay-form> with a mode that is no mode pays on the hosted page, and the console says so once a page', async () => {
    const warnings: string[] = [];
    const realWarn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      for (const mode of ['Hosted', 'Hosted', 'hosted ']) {
        const form = document.createElement('pay-form');
        form.session = await createSession();
        form.setAttribute('mode', mode);
        const ready = oneEvent(form, 'pay-ready');
        await fixture(form);
        // Not the card form, which would take card data the page did not ask for.
        expect((await ready).detail.mode, mode).to.equal('hosted');
        await form.updateComplete;
        expect(form.shadowRoot!.querySelector('input'), mode).to.equal(null);
        expect(button(form).textContent).to.match(/^Pay UAH\s100\.50 on the secure payment page$/);
        await waitUntil(() => warnings.some((warning) => warning.includes(`mode="${mode}"`)), `mode="${mode}" not said`);
      }
      const said = (mode: string) =>
        `<pay-form>: mode="${mode}" is not a mode: <pay-form mode> is "hosted" (the gateway's hosted page), or "direct" or left out (the card form, when the session allows it); until then the form pays on the hosted page, as with "hosted"`;
      expect(warnings).to.deep.equal([said('Hosted'), said('hosted ')]);
      // `direct`, as a session's modes spell it, is the card form, said nothing of.
      const form = document.createElement('pay-form');
      form.session = await createSession();
      form.setAttribute('mode', 'direct');
      const ready = oneEvent(form, 'pay-ready');
      await fixture(form);
      expect((await ready).detail.mode).to.equal('direct');
      expect(warnings).to.have.length(2);
    } finally {
      console.warn = realWarn;
    }
  });

  it('<pay-button> shows a paid session as paid', async () => {
    const session = await createSession();
    const form = await mount(session);
    const success = oneEvent(form, 'pay-success');
    autofill(form, card('4242424242424242'));
    button(form).click();
    await success;
    const payButton = document.createElement('pay-button');
    payButton.session = session;
    const paid = oneEvent(payButton, 'pay-success');
    await fixture(payButton);
    await paid;
    await payButton.updateComplete;
    expect(message(payButton)).to.equal('Payment successful');
    expect(payButton.shadowRoot!.querySelector('button')).to.equal(null);
  });

  it('<pay-button hidden> takes no room, as any element the page hides', async () => {
    const payButton = await mount({}, {}, 'pay-button');
    payButton.hidden = true;
    expect(getComputedStyle(payButton).display).to.equal('none');
    payButton.hidden = false;
    expect(getComputedStyle(payButton).display).to.equal('block');
  });

  describe('<pay-button> on a page set up wrong', () => {
    let said: string[];
    let restoreConsole: () => void;
    beforeEach(() => {
      said = [];
      const real = { error: console.error, warn: console.warn };
      console.error = console.warn = (...args: unknown[]) => void said.push(args.join(' '));
      restoreConsole = () => void Object.assign(console, real);
    });
    afterEach(() => restoreConsole());

    /** A `<pay-button>` set up by `setUp` before it connects, and the pay-error it fires. */
    async function failing(setUp: (payButton: HTMLElementTagNameMap['pay-button']) => void) {
      const payButton = document.createElement('pay-button');
      setUp(payButton);
      const error = oneEvent(payButton, 'pay-error');
      await fixture(payButton);
      return (await error).detail;
    }

    it('names itself, and its own attribute, for an endpoint that is not the companion', async () => {
      const session = await createSession();
      const detail = await failing((payButton) => Object.assign(payButton, { session, endpoint: `${location.origin}/not-the-companion` }));
      expect(detail.code).to.equal('misconfigured');
      expect(detail.reason).to.contain(`set <pay-button endpoint> (now "${location.origin}/not-the-companion")`);
      expect(said).to.deep.equal([`<pay-button>: ${detail.reason}`]);
    });

    it('names itself, and its own attribute, when no session was set', async () => {
      const detail = await failing((payButton) => (payButton.sessionWait = 100));
      expect(detail.reason).to.contain('no checkout session was set: set <pay-button session>');
      expect(said).to.deep.equal([`<pay-button>: ${detail.reason}`]);
    });

    it('says once that nothing answers at its endpoint, though the customer hears each click fail', async () => {
      // Port 9 (discard): nothing listens there.
      const detail = await failing((payButton) => Object.assign(payButton, { session: 'cs_any', endpoint: 'http://127.0.0.1:9' }));
      expect(detail.code).to.equal('network');
      const payButton = document.querySelector('pay-button')!;
      await payButton.updateComplete;
      for (let click = 0; click < 3; click++) {
        const error = oneEvent(payButton, 'pay-error');
        button(payButton).click();
        expect((await error).detail.code).to.equal('network');
        await payButton.updateComplete;
        // Read again by itself after each click, as a companion down for a moment would be (companion-away.browser.test.ts).
        expect(message(payButton)).to.equal('Could not reach the payment service. Trying again…');
      }
      expect(said).to.deep.equal(["<pay-button>: nothing answered at http://127.0.0.1:9: if the connection is up, allow http://127.0.0.1:9 in the page's Content-Security-Policy connect-src, or set <pay-button endpoint> to where the payform companion runs"]);
    });

    it('names itself when it has no words for the language', async () => {
      const payButton = await mount({}, { lang: 'ja' }, 'pay-button');
      await payButton.updateComplete;
      expect(said).to.deep.equal(['<pay-button>: no words for lang="ja", so English is shown; the widget speaks en, uk, pl, de, fr and es']);
    });
  });

  it('takes its companion from the endpoint attribute, on another origin', async () => {
    const calls = watchFetch();
    try {
      // The shop's companion at its own address rather than the page's: CORS lets this page in.
      const { id, companion_url: endpoint } = await openCheckout();
      expect(new URL(endpoint).origin).not.to.equal(location.origin);
      const payButton = document.createElement('pay-button');
      payButton.session = id;
      payButton.endpoint = `${endpoint}/`;
      const ready = oneEvent(payButton, 'pay-ready');
      await fixture(payButton);
      await ready;
      const redirect = stay(payButton);
      button(payButton).click();
      expect((await redirect).detail.reason).to.equal('hosted');
      expect(calls.map((call) => `${call.method} ${call.url}`)).to.deep.equal([
        `GET ${endpoint}/api/checkout/sessions/${id}?version=0.3`,
        `POST ${endpoint}/api/checkout/sessions/${id}/hosted`,
      ]);
    } finally {
      calls.restore();
    }
  });
});
