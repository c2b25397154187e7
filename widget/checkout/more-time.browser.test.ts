/**
 * More time to pay (WCAG 2.2.1, Timing Adjustable): beside the warning that a session's end is
 * near, a session that may be extended offers a button that asks the companion for more time
 * (`POST …/extend`); the session then runs on to its new end. Real sessions on the real companion,
 * which gives 10 minutes from now, or refuses (409) a session the shop opened with a fixed end.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { PayButton } from '../pay-button/pay-button.js';
import type { PayForm } from '../pay-form/pay-form.js';
import { answerModule, createSession, readView } from '../test/checkout-fixture.js';
import { button, field, heard, message, mount, press, viewsUntilExtended, watchFetch } from '../test/harness.js';

const EXPIRING = 'This payment expires in less than 2 minutes.';
const GIVEN = 'You now have 10 minutes to pay.';
const REFUSED = 'The time to pay cannot be extended.';
const pause = (ms: number): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, ms));

/** The button asking for more time, if the element shows one. */
const moreTime = (element: Element): HTMLButtonElement | null => element.shadowRoot!.querySelector('[part~=more-time]');

describe('more time to pay', () => {
  // First in this file: its page has not loaded test mode's card list yet, which this test holds back.
  it('keeps the focus it has as test mode\'s card list comes under it', async () => {
    const TEST_CARDS = '/widget/pay-form/test-cards.ts';
    await answerModule(TEST_CARDS, 'hold');
    const session = await createSession({ ttl_seconds: 60 });
    const calls = viewsUntilExtended(session, (view) => ({ ...view, expires_in_seconds: 3 }));
    try {
      const form = await mount(session);
      await waitUntil(() => moreTime(form), 'not offered');
      const offered = moreTime(form)!;
      offered.focus();
      await answerModule(TEST_CARDS, 'serve');
      await waitUntil(() => form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards');
      expect(moreTime(form) === offered, 'the same button').to.equal(true);
      expect(form.shadowRoot!.activeElement === offered, 'focus kept').to.equal(true);
    } finally {
      calls.restore();
      await answerModule(TEST_CARDS, 'serve');
    }
  });

  it('is offered beside the warning; pressed, the session runs on past its old end, focus back in the field', async () => {
    // A minute at the companion; three seconds as the form reads it, which only more time outlasts.
    const session = await createSession({ ttl_seconds: 60 });
    const calls = viewsUntilExtended(session, (view) => ({ ...view, expires_in_seconds: 3 }));
    try {
      const form = await mount(session);
      const words = heard(form);
      field(form, 'number').focus();
      await waitUntil(() => message(form) === EXPIRING && moreTime(form), `not offered: "${message(form)}"`);
      // Outside the live region: it says the warning alone.
      expect(form.shadowRoot!.querySelector('[part=message]')!.contains(moreTime(form))).to.equal(false);
      expect(moreTime(form)!.textContent).to.equal('I need more time');
      // By keyboard, from the field the customer was in.
      moreTime(form)!.focus();
      await press('Enter');
      await waitUntil(() => message(form) === GIVEN, `not given: "${message(form)}"`);
      await form.updateComplete;
      expect(moreTime(form), 'the button goes').to.equal(null);
      expect(form.shadowRoot!.activeElement === field(form, 'number'), `focus on <${document.activeElement?.localName}>`).to.equal(true);
      const extension = calls.filter(({ url }) => url.endsWith(`/sessions/${session}/extend`));
      expect(extension.map(({ method }) => method)).to.deep.equal(['POST']);
      const view = await readView(session);
      expect(view.expires_in_seconds, 'the companion gave ten minutes').to.be.within(590, 600);
      expect(view.extendable).to.equal(true);
      // Past the end the form first read, plus the second it waits: it never read the session again to end it.
      const reads = calls.length;
      await pause(4500);
      expect(form.phase).to.equal('ready');
      expect(calls.slice(reads).filter(({ url }) => !url.endsWith('/pay')), 'no read at the old end').to.deep.equal([]);
      expect(message(form)).to.equal(GIVEN);
      expect(words.filter((each) => each === GIVEN), words.join(' | ')).to.have.length(1);
    } finally {
      calls.restore();
    }
  });

  it('is not offered for a session whose end the shop fixed, nor by a companion that does not say (no extendable)', async () => {
    const fixed = await mount({ ttl_seconds: 60, extendable: false });
    await waitUntil(() => message(fixed) === EXPIRING, `not told: "${message(fixed)}"`);
    await fixed.updateComplete;
    expect(moreTime(fixed)).to.equal(null);

    const session = await createSession({ ttl_seconds: 60 });
    const calls = viewsUntilExtended(session, ({ extendable: _left, ...view }) => view);
    try {
      const older = await mount(session);
      await waitUntil(() => message(older) === EXPIRING, `not told: "${message(older)}"`);
      await older.updateComplete;
      expect(moreTime(older)).to.equal(null);
    } finally {
      calls.restore();
    }
  });

  it('says the companion’s refusal (409) in the customer’s words, the form as it was', async () => {
    // Fixed at the companion, but read as extendable: the companion refuses (session_end_fixed).
    const session = await createSession({ ttl_seconds: 60, extendable: false });
    const calls = viewsUntilExtended(session, (view) => ({ ...view, extendable: true }));
    try {
      const form = await mount(session);
      await waitUntil(() => moreTime(form), 'not offered');
      moreTime(form)!.focus();
      moreTime(form)!.click();
      await waitUntil(() => message(form) === REFUSED, `not said: "${message(form)}"`);
      await form.updateComplete;
      const refused = calls.find(({ url }) => url.endsWith('/extend'));
      expect(refused?.method).to.equal('POST');
      expect(form.alarming).to.equal(true);
      expect(form.phase).to.equal('ready');
      expect(moreTime(form), 'not offered again').to.equal(null);
      expect(form.shadowRoot!.querySelector('#number'), 'still takes the card').to.not.equal(null);
      // Not dropped to the page's start: on the button on offer, the pay button.
      expect(form.shadowRoot!.activeElement === button(form), `focus on <${document.activeElement?.localName}>`).to.equal(true);
    } finally {
      calls.restore();
    }
  });

  it('stays on offer when the extension gets no answer, and gives the time when pressed again', async () => {
    const session = await createSession({ ttl_seconds: 60 });
    let drop = true;
    // A dropped connection, which the companion itself never answers with.
    const calls = watchFetch((call) => (drop && call.url.endsWith('/extend') ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    try {
      const form = await mount(session);
      await waitUntil(() => moreTime(form), 'not offered');
      moreTime(form)!.focus();
      moreTime(form)!.click();
      await waitUntil(() => message(form) === 'Could not reach the payment service. Please try again.', `not said: "${message(form)}"`);
      await form.updateComplete;
      expect(form.shadowRoot!.activeElement === moreTime(form), 'still on the button').to.equal(true);
      drop = false;
      moreTime(form)!.click();
      await waitUntil(() => message(form) === GIVEN, `not given: "${message(form)}"`);
      expect(calls.filter(({ url }) => url.endsWith('/extend'))).to.have.length(2);
    } finally {
      calls.restore();
    }
  });

  it('speaks the page’s language', async () => {
    const session = await createSession({ ttl_seconds: 60 });
    const form = await mount(session, { lang: 'uk' });
    await waitUntil(() => moreTime(form)?.textContent === 'Мені потрібно більше часу', 'not offered in Ukrainian');
    moreTime(form)!.click();
    await waitUntil(() => message(form) === 'Тепер у вас є 10 хвилин на оплату.', `not given: "${message(form)}"`);
    // The page changes its language: the time given is said in the new one.
    form.lang = 'de';
    await waitUntil(() => message(form) === 'Sie haben jetzt 10 Minuten zum Bezahlen.', `not in German: "${message(form)}"`);
  });

  it('is offered once on a page with a form and a button of the session, and runs both on', async () => {
    const session = await createSession({ ttl_seconds: 60 });
    const calls = viewsUntilExtended(session, (view) => ({ ...view, expires_in_seconds: 3 }));
    try {
      const form = await mount(session);
      const payButton: PayButton = await mount(session, {}, 'pay-button');
      const words = heard(form, payButton);
      await waitUntil(() => moreTime(form), 'not offered');
      await payButton.updateComplete;
      expect([moreTime(form), moreTime(payButton)].filter(Boolean), 'one button').to.have.length(1);
      expect([message(form), message(payButton)].filter((each) => each === EXPIRING), 'one warning').to.have.length(1);
      moreTime(form)!.click();
      await waitUntil(() => message(form) === GIVEN, `not given: "${message(form)}"`);
      for (const element of [form, payButton] as (PayForm | PayButton)[]) expect(element.view!.expires_in_seconds, element.localName).to.be.within(590, 600);
      const reads = calls.length;
      await pause(4500);
      expect([form.phase, payButton.phase], 'neither ended at the old end').to.deep.equal(['ready', 'ready']);
      expect(calls.slice(reads), 'no read at the old end').to.deep.equal([]);
      expect(words.filter((each) => each === GIVEN), words.join(' | ')).to.have.length(1);
    } finally {
      calls.restore();
    }
  });
});
