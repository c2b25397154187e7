// A framework may replace the element while it pays: an Angular `@if` that flips on `processing`,
// a React or Vue keyed render. The payment goes on at the companion; what the page shows of the
// session, and hears of the payment, comes from the elements of that session in the page.
import { expect, waitUntil } from '@open-wc/testing';
import type { PayForm } from '../pay-form/pay-form.js';
import { advanceGatewayClock, createSession, decideChallenge } from '../test/checkout-fixture.js';
import { autofill, button, card, message, mount, record, stay, watchFetch } from '../test/harness.js';

type Told = 'pay-success' | 'pay-failure' | 'pay-error';

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
  expect([button(element).disabled, button(element).textContent, element.hasAttribute('processing')], what).to.deep.equal([true, 'Processing payment…', true]);
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
    payments = watchFetch((call, pass) => (call.url.endsWith('/pay') ? held.then(pass) : undefined));
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

  /** Lets the pay answer come, and waits until the page has heard of the payment and `elements` have shown it. */
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
    expect(button(form).disabled, 'on offer for another card').to.equal(false);
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
    expect([button(otherForm).disabled, otherForm.hasAttribute('processing')], 'of another session').to.deep.equal([false, false]);
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
    const form = await mount(session);
    form.pollInterval = 50;
    answer();
    autofill(form, card('4000000000000119')); // pending, settled 5 s of gateway time later
    button(form).click();
    await waitUntil(() => message(form) === 'Confirming your payment…', 'the card payment is not pending');
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
});
