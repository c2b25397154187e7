/**
 * The timings a page sets — pollInterval, pollTimeout, sessionWait — whatever it sets them to:
 * `Object.assign(form, { pollInterval: '2s' })` once read a pending payment as fast as the browser
 * could (setTimeout of NaN), about 300 requests a second for as long as it stayed pending. A timing
 * that is no number of ms within bounds is its default, and the console says so once. Counted in
 * requests, not in time.
 */
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import type { CheckoutElement } from './checkout-element.js';
import { collectFingerprint } from './fingerprint.js';
import { createSession } from '../test/checkout-fixture.js';
import { json, message, mount, readsSession, record, watchConsoleErrors, watchFetch, yearAhead } from '../test/harness.js';
import '../index.js';

type Timings = Partial<Record<'pollInterval' | 'pollTimeout' | 'sessionWait', unknown>>;

/** A session the customer's other tab paid by 4000 0000 0000 0119: pending until 5 s of gateway time pass. */
async function pendingSession(): Promise<string> {
  const session = await createSession();
  const response = await fetch(`/api/checkout/sessions/${session}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card: { number: '4000000000000119', exp_month: 12, exp_year: 2000 + Number(yearAhead(3)), cvv: '123' }, fingerprint: collectFingerprint() }),
  });
  expect(((await response.json()) as { status: string }).status).to.equal('pending');
  return session;
}

/** `tag` with `timings` for `session`, set as a page's `Object.assign` would, before it is shown. */
async function shown(tag: 'pay-form' | 'pay-button', session: string, timings: Timings): Promise<CheckoutElement> {
  const element = Object.assign(document.createElement(tag), { session }, timings) as CheckoutElement;
  await fixture(element);
  return element;
}

/** The reads of `session` among `calls`. */
const readsOf = (calls: { url: string; method: string }[], session: string): number =>
  calls.filter((call) => readsSession(call, session)).length;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the console says of a timing that is none. */
const mistimed = (tag: string, name: string, range: string, shown: string, otherwise: number): string =>
  `<${tag}>: ${name} is milliseconds, a number from ${range}: ${shown} is none; using ${otherwise}`;

describe('timings a page sets', () => {
  let errors: ReturnType<typeof watchConsoleErrors>;
  let calls: ReturnType<typeof watchFetch>;
  beforeEach(() => {
    errors = watchConsoleErrors();
    calls = watchFetch();
  });
  afterEach(() => {
    calls.restore();
    errors.restore();
  });

  // Each value once a file: the console is told of each once a page.
  const NONE: [value: unknown, shown: string][] = [['2s', '"2s"'], [0, '0'], [NaN, 'NaN'], [-1, '-1'], [Infinity, 'Infinity'], [1e12, '1000000000000']];

  for (const tag of ['pay-form', 'pay-button'] as const) {
    it(`<${tag}> polls a pending payment at its default pace whatever pollInterval is, and says so once`, async () => {
      for (const [pollInterval, shownAs] of NONE) {
        const session = await pendingSession();
        const element = await shown(tag, session, { pollInterval });
        await waitUntil(() => message(element) === 'Confirming your payment…', `${shownAs}: not confirming`, { timeout: 5000 });
        await pause(300);
        // The session's first read, and none since: the next comes 2 s on. NaN once made some hundred here.
        expect(readsOf(calls, session), `reads with pollInterval ${shownAs}`).to.be.at.most(2);
        // Said as the paying chunk takes the element, which on a loaded machine may come after "Confirming".
        await waitUntil(() => errors.some((line) => line.includes(` ${shownAs} is none`)), `${shownAs}: not said`, { timeout: 5000 });
        expect(errors.filter((line) => line.includes(` ${shownAs} is none`)), shownAs).to.deep.equal([mistimed(tag, 'pollInterval', '20 to 60000', shownAs, 2000)]);
        element.remove();
      }
    });
  }

  it('watches a payment polling gave up on at its default pace whatever pollInterval is', async () => {
    // pollTimeout 0: straight to watching, every 15 polls' time (0 once: a read after each answer, for an hour).
    const session = await pendingSession();
    const form = await shown('pay-form', session, { pollInterval: '', pollTimeout: 0 });
    await waitUntil(() => form.phase === 'waiting', 'not waiting', { timeout: 5000 });
    await pause(300);
    expect(readsOf(calls, session)).to.be.at.most(2);
    expect(errors).to.deep.equal([mistimed('pay-form', 'pollInterval', '20 to 60000', '""', 2000)]);
  });

  it('reads a session its companion does not answer again at its default pace whatever pollInterval is', async () => {
    const session = await createSession();
    calls.restore();
    // A proxy's 503 while the companion restarts: read again by itself, after half a pollInterval.
    calls = watchFetch((call) => (call.url.includes(session) ? Promise.resolve(json(503, {})) : undefined));
    const form = await shown('pay-form', session, { pollInterval: 'soon' });
    await waitUntil(() => message(form) === 'Could not reach the payment service. Trying again…', `not said: ${message(form)}`, { timeout: 5000 });
    await pause(300);
    expect(readsOf(calls, session)).to.be.at.most(2);
    expect(errors).to.deep.equal([mistimed('pay-form', 'pollInterval', '20 to 60000', '"soon"', 2000)]);
  });

  it('takes a timing given as its digits, and one unset (a framework prop before its data), saying nothing', async () => {
    const session = await pendingSession();
    // "50": a string, as an attribute's value is, read as the number it spells: polled often.
    const form = await shown('pay-form', session, { pollInterval: '50', sessionWait: undefined, pollTimeout: null });
    await waitUntil(() => readsOf(calls, session) >= 4, 'not polled every 50 ms', { timeout: 5000 });
    expect(errors).to.deep.equal([]);
    form.remove();
  });

  it('says pollTimeout and sessionWait that are none once each, and goes on with their defaults', async () => {
    const session = await pendingSession();
    const form = await shown('pay-form', session, { pollInterval: 50, pollTimeout: '1m', sessionWait: -5 });
    await waitUntil(() => message(form) === 'Confirming your payment…', 'not confirming', { timeout: 5000 });
    // Polled every 50 ms, not given up on at once (`Date.now() < NaN`).
    await waitUntil(() => readsOf(calls, session) >= 4, 'not polled', { timeout: 5000 });
    expect(form.phase).to.equal('confirming');
    expect(errors).to.have.members([mistimed('pay-form', 'pollTimeout', '0 to 3600000', '"1m"', 60000), mistimed('pay-form', 'sessionWait', '0 to 600000', '-5', 10000)]);
    expect(errors).to.have.length(2);
  });

  it('waits its default 10 s for a session the page sets late when sessionWait is none, and says so', async () => {
    // "10s" once compared as NaN: "no checkout session was set" at the first look, 0.1 s on.
    const form = Object.assign(document.createElement('pay-form'), { sessionWait: '10s' });
    const failures = record(form, 'pay-error');
    await fixture(form);
    await pause(500);
    expect(failures).to.deep.equal([]);
    const ready = oneEvent(form, 'pay-ready');
    form.session = await createSession();
    await ready;
    await waitUntil(() => errors.length > 0, 'the console says nothing');
    expect(failures).to.deep.equal([]);
    expect(errors).to.deep.equal([mistimed('pay-form', 'sessionWait', '0 to 600000', '"10s"', 10000)]);
  });

  it('says whose the amount is when a page sets it, as a framework binding it would, and shows the session’s', async () => {
    const form = await mount({});
    const shownBefore = form.shadowRoot!.textContent;
    // Angular's [amount], Vue's :amount: a property set, which threw an anonymous TypeError.
    expect(() => Object.assign(form, { amount: 100 })).not.to.throw();
    // A framework binding sets it at each change: said once.
    Object.assign(form, { amount: 200 });
    expect(errors).to.deep.equal(["<pay-form>: amount is the checkout session's: set it where your server opens the session, not on the element"]);
    await form.updateComplete;
    expect(form.shadowRoot!.textContent).to.equal(shownBefore);
  });

  it('says a timing given as an attribute is not read, and names the property', async () => {
    await mount({}, { 'poll-interval': '5000', sessionwait: '1' });
    await waitUntil(() => errors.length >= 2, `the console says: ${errors.join(' | ')}`);
    expect(errors).to.have.members([
      "<pay-form>: poll-interval is no attribute of <pay-form>, so it is not read: set the element's pollInterval property (Vue: :pollInterval, Svelte: pollInterval={…}, Lit: .pollInterval)",
      "<pay-form>: sessionWait is no attribute of <pay-form>, so it is not read: set the element's sessionWait property (Vue: :sessionWait, Svelte: sessionWait={…}, Lit: .sessionWait)",
    ]);
  });

  for (const tag of ['pay-form', 'pay-button'] as const) {
    it(`keeps timings set before <${tag}> is defined, as its session (upgraded as it enters the page)`, async () => {
      // Made where it is not defined yet (a framework's template, a page whose script comes last):
      // plain properties of the element until it is upgraded, as it enters the page.
      const element = document.implementation.createHTMLDocument('').createElement(tag) as CheckoutElement;
      expect(element instanceof customElements.get(tag)!, 'not yet upgraded').to.equal(false);
      Object.assign(element, { pollInterval: 500, pollTimeout: 5000, sessionWait: 300 });
      const failed = oneEvent(element, 'pay-error');
      const start = Date.now();
      await fixture(element);
      expect(element instanceof customElements.get(tag)!, 'upgraded').to.equal(true);
      // No session: said once the 300 ms wait is up, not the default 10 s.
      expect((await failed).detail.code).to.equal('misconfigured');
      expect(Date.now() - start, 'waited the default').to.be.below(5000);
      expect([element.pollInterval, element.pollTimeout, element.sessionWait]).to.deep.equal([500, 5000, 300]);
      expect(errors.filter((error) => !error.includes('no checkout session'))).to.deep.equal([]);
    });
  }
});
