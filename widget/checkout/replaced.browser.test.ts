// A framework may replace the element while it pays: an Angular `@if` that flips on `processing`,
// a React or Vue keyed render. The payment goes on at the companion; what the page shows of the
// session, and hears of the payment, comes from the elements of that session in the page.
import { expect, fixture, waitUntil } from '@open-wc/testing';
import type { PayForm } from '../pay-form/pay-form.js';
import { advanceGatewayClock, createSession, decideChallenge } from '../test/checkout-fixture.js';
import { autofill, busy, button, card, message, mount, readsSession, record, stay, type FetchCall, watchFetch } from '../test/harness.js';

type Told = 'pay-success' | 'pay-failure' | 'pay-error';

/** A pay request, or one for the hosted page: the requests whose answers the tests hold. */
const asks = ({ url }: FetchCall): boolean => url.endsWith('/pay') || url.endsWith('/hosted');

/** Each outcome event the page (its document) hears from now on: which, and from which element. */
function pageHears(): { told: [Told, EventTarget][]; restore(): void } {
  const told: [Told, EventTarget][] = [];
  const types: Told[] = ['pay-success', 'pay-failure', 'pay-error'];
  const listener = (event: Event) => told.push([event.type as Told, event.target!]);
  for (const type of types) document.addEventListener(type, listener);
  return { told, restore: () => types.forEach((type) => document.removeEventListener(type, listener)) };
}

/** Shows the element busy with a payment of its session: nothing to click, "Processing payment…". */
function expectHeld(element: HTMLElement, what: string): void {
  expect([busy(button(element)), button(element).textContent, element.hasAttribute('processing')], what).to.deep.equal([true, 'Processing payment…', true]);
}

/**
 * Every `pay-redirect` of `element` that no listener cancelled: the page would have left for it.
 * Cancelled here after it is counted, so that the test page stays.
 */
function leavesFor(element: HTMLElement): string[] {
  const urls: string[] = [];
  element.addEventListener('pay-redirect', (event) => {
    if (!event.defaultPrevented) urls.push(event.detail.url);
    event.preventDefault();
  });
  return urls;
}

/** The customer back at the checkout: a `<pay-form>` of `session`, which reads it as a page loaded anew does. */
async function comeBack(session: string): Promise<PayForm> {
  const form = document.createElement('pay-form');
  form.session = session;
  form.pollInterval = 50;
  return fixture(form);
}

/** One task, for anything a payment's end would still tell the page. */
const settle = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve));

describe('an element replaced while it pays', () => {
  let page: ReturnType<typeof pageHears>;
  let payments: ReturnType<typeof watchFetch>;
  /** Lets the companion have the held pay request, and its answer come back. */
  let answer: () => void;

  beforeEach(() => {
    page = pageHears();
    const held = new Promise<void>((resolve) => (answer = resolve));
    payments = watchFetch((call, pass) => (asks(call) ? held.then(pass) : undefined));
  });
  afterEach(() => {
    page.restore();
    payments.restore();
  });

  /** A form for `session` that leaves the page as its customer submits (the page's `@if` flips), and pays `number`; once its pay request is sent. */
  async function payAndLeave(session: string, number: string, also: HTMLElement[] = []): Promise<PayForm> {
    const form = await mount(session);
    form.addEventListener('pay-submit', () => [form, ...also].forEach((element) => element.remove()));
    autofill(form, card(number));
    button(form).click();
    await waitUntil(() => payments.some((call) => call.url.endsWith('/pay')), 'no payment was sent');
    return form;
  }

  /** A form of `session` confirming a pending payment: the gateway settles it 5 s of its clock later. */
  async function confirming(session: string): Promise<PayForm> {
    const form = await mount(session);
    form.pollInterval = 50;
    answer();
    autofill(form, card('4000000000000119'));
    button(form).click();
    await waitUntil(() => message(form) === 'Confirming your payment…', 'the card payment is not pending');
    return form;
  }

  /** Lets the pay answer come, and waits until the page has heard of the payment and `elements` have shown it. */
  /** A `<pay-button>` that asked for the hosted page, taken out of the page before the answer. */
  async function hostedAskedThenRemoved(): Promise<{ session: string; payButton: HTMLElement & { phase: string }; navigated: string[] }> {
    const session = await createSession();
    const payButton = await mount(session, {}, 'pay-button');
    const navigated = leavesFor(payButton);
    button(payButton).click();
    await waitUntil(() => payments.some((call) => call.url.endsWith('/hosted')), 'no hosted page was asked for');
    payButton.remove();
    return { session, payButton, navigated };
  }

  async function answerAndSettle(...elements: { readonly updateComplete: Promise<unknown> }[]): Promise<void> {
    answer();
    await waitUntil(() => page.told.length, 'the page heard nothing of the payment');
    await Promise.all(elements.map((element) => element.updateComplete));
    await settle();
  }

  it('a new form of the same session is held, then shows the success, and the page hears pay-success once, from it', async () => {
    const session = await createSession();
    const replaced = await payAndLeave(session, '4242424242424242');
    // A page without a framework keeps its listeners on the element it removed.
    const keptListening = record(replaced, 'pay-success');
    const form = await mount(session);
    expectHeld(form, 'while the payment is under way');
    await answerAndSettle(form);
    expect(message(form)).to.equal('Payment successful');
    expect(form.shadowRoot!.querySelector('[part=success]'), 'the paid outcome, not a form').not.to.equal(null);
    expect(page.told).to.deep.equal([['pay-success', form]]);
    expect(keptListening, 'told once, by the form in the page').to.deep.equal([]);
  });

  it('a new form of the same session shows a decline as the replaced one would, and the page hears pay-failure once', async () => {
    const session = await createSession();
    await payAndLeave(session, '4000000000000002');
    const form = await mount(session);
    expectHeld(form, 'while the payment is under way');
    await answerAndSettle(form);
    expect(page.told).to.deep.equal([['pay-failure', form]]);
    expect(message(form), 'why the form is back').to.match(/declined/);
    expect(busy(button(form)), 'on offer for another card').to.equal(false);
  });

  it('an element of the session taken out with it and put back is held, then shows the success the page hears from it once', async () => {
    const session = await createSession();
    const payButton = await mount(session, {}, 'pay-button');
    const parent = payButton.parentElement!;
    await payAndLeave(session, '4242424242424242', [payButton]);
    parent.append(payButton);
    await payButton.updateComplete;
    expectHeld(payButton, 'back in the page while the payment is under way');
    await answerAndSettle(payButton);
    expect(message(payButton)).to.equal('Payment successful');
    expect(payButton.shadowRoot!.querySelector('button'), 'paid: no button').to.equal(null);
    expect(page.told).to.deep.equal([['pay-success', payButton]]);
  });

  it('the paying form put back beside its replacement: both show the success, the page hears it once, from the payer', async () => {
    const session = await createSession();
    const payer = await payAndLeave(session, '4242424242424242');
    const form = await mount(session);
    form.parentElement!.append(payer);
    await payer.updateComplete;
    expectHeld(form, 'beside the payer, while it pays');
    await answerAndSettle(payer, form);
    expect([message(payer), message(form)]).to.deep.equal(['Payment successful', 'Payment successful']);
    expect(page.told).to.deep.equal([['pay-success', payer]]);
  });

  it('a form of another session is not held, nor hears the payment; one of the paid session beside it is', async () => {
    const session = await createSession();
    const other = await createSession({ amount: 2000 });
    await payAndLeave(session, '4242424242424242');
    const otherForm = await mount(other);
    const form = await mount(session);
    expectHeld(form, 'of the session being paid');
    expect([busy(button(otherForm)), otherForm.hasAttribute('processing')], 'of another session').to.deep.equal([false, false]);
    expect(button(otherForm).textContent).to.match(/^Pay UAH\s20\.00$/);
    await answerAndSettle(form, otherForm);
    expect(page.told).to.deep.equal([['pay-success', form]]);
    expect(otherForm.phase).to.equal('ready');
    expect(message(otherForm)).to.equal('');
  });
  it('leaving while it confirms, the payer hands the polling to an element of its session, which shows the end the page hears once', async () => {
    const session = await createSession();
    const payButton = await mount(session, {}, 'pay-button');
    payButton.pollInterval = 50;
    const form = await confirming(session);
    form.remove();
    await settle();
    await payButton.updateComplete;
    expect(payButton.phase, 'confirming in the payer\'s stead').to.equal('confirming');
    await advanceGatewayClock(5);
    await waitUntil(() => page.told.length, 'the page heard nothing of the payment');
    await payButton.updateComplete;
    await settle();
    expect(message(payButton)).to.equal('Payment successful');
    expect(page.told).to.deep.equal([['pay-success', payButton]]);
  });

  it('leaving while it confirms with no element of its session left, the payer confirms on: the document hears the end once', async () => {
    const form = await confirming(await createSession());
    // The customer follows a link in the shop: the page's router removes the checkout.
    form.remove();
    await settle();
    await advanceGatewayClock(5);
    await waitUntil(() => page.told.length, 'the document heard nothing of the payment');
    await settle();
    expect(page.told).to.deep.equal([['pay-success', document]]);
  });

  it('a 3-D Secure redirect of the replaced form reaches the page through its replacement, which confirms the payment when the page stays', async () => {
    const session = await createSession();
    const redirect = stay(document);
    const replaced = await payAndLeave(session, '4000000000003220');
    // Keeps the test page should the page not be told (and so not cancel it).
    let untold = false;
    replaced.addEventListener('pay-redirect', (event) => event.defaultPrevented || ((untold = true), event.preventDefault()));
    const form = await mount(session);
    form.pollInterval = 50;
    answer();
    await waitUntil(() => untold || form.phase === 'confirming', 'no redirect came');
    expect(untold, 'the page was told of the redirect, and cancelled it').to.equal(false);
    const { detail, target } = await redirect;
    expect(target, 'told by the form in the page').to.equal(form);
    await waitUntil(() => form.phase === 'confirming', 'the replacement does not confirm the payment');
    await decideChallenge(detail.url, 'success');
    await waitUntil(() => page.told.length, 'the page heard nothing of the payment');
    await form.updateComplete;
    await settle();
    expect(message(form)).to.equal('Payment successful');
    expect(page.told).to.deep.equal([['pay-success', form]]);
  });

  it('the replaced form whose challenge its replacement took leaves the confirming to it: the page hears the end once, not again later', async () => {
    const session = await createSession();
    stay(document);
    const replaced = await payAndLeave(session, '4000000000003220');
    // Slower than its replacement: a read of its own would come after the replacement's.
    replaced.pollInterval = 300;
    const form = await mount(session);
    form.pollInterval = 50;
    const { detail } = await new Promise<CustomEvent<{ url: string }>>((resolve) => {
      form.addEventListener('pay-redirect', resolve as EventListener, { once: true });
      answer();
    });
    await waitUntil(() => form.phase === 'confirming', 'the replacement does not confirm the payment');
    await decideChallenge(detail.url, 'success');
    await waitUntil(() => form.phase === 'success', 'the replacement does not show the payment');
    // The customer goes on in the shop: no element of the session is left in the page.
    form.remove();
    await waitUntil(() => replaced.phase !== 'confirming', 'the replaced form confirms on, out of the page', { timeout: 3000 });
    await settle();
    expect(replaced.phase, 'not a second reading of the session').to.not.equal('success');
    expect(page.told).to.deep.equal([['pay-success', form]]);
  });
  for (const [number, end] of [['4242424242424242', 'pay-success'], ['4000000000000002', 'pay-failure']] as const) {
    it(`the ${end} of a payment whose every element the page removed reaches the document once, and the payer's own listeners`, async () => {
      const session = await createSession();
      const replaced = await payAndLeave(session, number);
      const keptListening = record(replaced, end);
      const heard = record(document, end);
      answer();
      await waitUntil(() => heard.length, 'the document heard nothing of the payment');
      await settle();
      expect(page.told).to.deep.equal([[end, document]]);
      expect([keptListening.length, heard[0]?.orderId], 'told the payer\'s listeners once, with the order').to.deep.equal([1, replaced.view!.order_id]);
    });
  }

  describe('a redirect that comes once the page removed every element of its session (the customer left the checkout)', () => {
    it('takes no one to the bank\'s page: the page hears challenge_held, and a form of the session shown later takes the customer there', async () => {
      const session = await createSession();
      const errors = record(document, 'pay-error');
      const replaced = await payAndLeave(session, '4000000000003220');
      const navigated = leavesFor(replaced);
      answer();
      await waitUntil(() => errors.length || navigated.length, 'neither a redirect nor word of it came');
      expect(navigated, 'the page left for the bank from wherever the customer went').to.deep.equal([]);
      expect(errors.map(({ code, orderId }) => [code, orderId])).to.deep.equal([['challenge_held', replaced.view!.order_id]]);
      expect(errors[0]?.reason).to.include(session);
      // Back at the checkout, the form reads the payment pending, and goes on to the challenge.
      const redirect = stay(document);
      const form = await comeBack(session);
      const { detail, target } = await redirect;
      expect([target, detail.reason]).to.deep.equal([form, '3ds']);
      await decideChallenge(detail.url, 'success');
      await waitUntil(() => form.phase === 'success', 'the form does not confirm the payment');
      expect(message(form)).to.equal('Payment successful');
    });

    it('a form of the session confirming it in the page as the answer comes takes the customer to their bank', async () => {
      const session = await createSession();
      answer();
      // The pay request reaches the companion; its answer waits until the form below polls.
      let reached = false;
      let answerNow!: () => void;
      const late = new Promise<void>((resolve) => (answerNow = resolve));
      const held = watchFetch((call, pass) => (call.url.endsWith('/pay') ? pass().then((response) => ((reached = true), late.then(() => response))) : undefined));
      try {
        const replaced = await payAndLeave(session, '4000000000003220');
        const navigated = leavesFor(replaced);
        await waitUntil(() => reached, 'the pay request did not reach the companion');
        const form = await comeBack(session);
        await waitUntil(() => form.phase === 'confirming', 'the form does not read the payment pending');
        let told: CustomEvent<{ reason: string }> | undefined;
        void stay(document).then((event) => (told = event));
        answerNow();
        await waitUntil(() => told || navigated.length, 'no redirect came');
        expect(navigated, 'left for the bank by the element out of the page').to.deep.equal([]);
        expect([told!.target, told!.detail.reason]).to.deep.equal([form, '3ds']);
      } finally {
        held.restore();
      }
    });

    describe('an element of the session in the page still loading it as the answer comes (the page rendered the checkout anew)', () => {
      /** Holds each read of `session` until `release()`: the element shown reads it later. */
      function holdReads(session: string): ReturnType<typeof watchFetch> & { release(): void } {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        const reads = watchFetch((call, pass) => (readsSession(call, session) ? released.then(pass) : undefined));
        return Object.assign(reads, { release });
      }

      it('takes the customer to their bank, once, and the page hears no challenge_held', async () => {
        const session = await createSession();
        const errors = record(document, 'pay-error');
        const replaced = await payAndLeave(session, '4000000000003220');
        const navigated = leavesFor(replaced);
        const reads = holdReads(session);
        try {
          const form = await comeBack(session);
          const taken = leavesFor(form);
          expect(form.phase, 'reading its session').to.equal('loading');
          answer();
          await waitUntil(() => errors.length || taken.length || navigated.length, 'neither a redirect nor word of it came');
          expect(errors.map(({ code }) => code), 'the customer is at checkout').to.deep.equal([]);
          expect(navigated, 'left for the bank by the element out of the page').to.deep.equal([]);
          expect(taken).to.have.length(1);
          reads.release();
          await waitUntil(() => form.phase === 'confirming', 'the form does not read the payment pending');
          await settle();
          expect([taken.length, errors.length], 'not taken to the challenge again, nor told it was held').to.deep.equal([1, 0]);
        } finally {
          reads.restore();
        }
      });

      for (const [number, end] of [['4242424242424242', 'pay-success'], ['4000000000000002', 'pay-failure']] as const) {
        it(`tells the page the payment's ${end} once, from the element in the page, with what the answer said`, async () => {
          const session = await createSession();
          const replaced = await payAndLeave(session, number);
          // A page without a framework keeps its listeners on the element it removed.
          const keptListening = record(replaced, end);
          const heard = record(document, end);
          const reads = holdReads(session);
          try {
            const form = await comeBack(session);
            answer();
            await waitUntil(() => replaced.phase !== 'paying', 'the payment did not end');
            reads.release();
            await waitUntil(() => form.phase !== 'loading', 'the form did not read its session');
            await form.updateComplete;
            await settle();
            expect(page.told).to.deep.equal([[end, form]]);
            expect(keptListening, 'told once, by the form in the page').to.deep.equal([]);
            expect(heard[0]?.orderId).to.equal(replaced.view!.order_id);
            if (end === 'pay-success') expect(heard[0], 'with the answer\'s payment id').to.have.property('paymentId').that.is.a('string');
          } finally {
            reads.restore();
          }
        });
      }

      it('opens the hosted page a button the page replaced asked for', async () => {
        const { session, payButton, navigated } = await hostedAskedThenRemoved();
        const reads = holdReads(session);
        try {
          const back = document.createElement('pay-button');
          back.session = session;
          await fixture(back);
          const taken = record(back, 'pay-redirect');
          stay(back);
          expect(back.phase, 'reading its session').to.equal('loading');
          answer();
          await waitUntil(() => payButton.phase !== 'paying' || navigated.length, 'the hosted page\'s answer did not come');
          await settle();
          expect(navigated, 'left by the button out of the page').to.deep.equal([]);
          expect(taken.map(({ reason }) => reason), 'by the button the customer is on').to.deep.equal(['hosted']);
        } finally {
          reads.restore();
        }
      });
    });

    it('a hosted page a button the page removed could not open is news to its own listeners only: no payment was made', async () => {
      // The companion has the request; its answer is lost on the way back.
      const dropped = watchFetch((call, pass) => (call.url.endsWith('/hosted') ? pass().then(() => Promise.reject(new TypeError('Failed to fetch'))) : undefined));
      try {
        const { payButton } = await hostedAskedThenRemoved();
        const own = record(payButton, 'pay-error');
        answer();
        await waitUntil(() => own.length, 'the button did not tell its listeners');
        await settle();
        expect(own.map(({ code }) => code)).to.deep.equal(['network']);
        expect(page.told, 'a page-wide listener would say a payment failed where the customer went').to.deep.equal([]);
      } finally {
        dropped.restore();
      }
    });

    it('a hosted page asked for by a button the page removed is not opened, and the session is open for the next element', async () => {
      const { session, payButton, navigated } = await hostedAskedThenRemoved();
      answer();
      await waitUntil(() => payButton.phase !== 'paying' || navigated.length, 'the hosted page\'s answer did not come');
      expect(navigated, 'the page left for the hosted page from wherever the customer went').to.deep.equal([]);
      const back = await mount(session, {}, 'pay-button');
      expect([back.phase, busy(button(back))]).to.deep.equal(['ready', false]);
    });
  });
});
