/**
 * A session's time to pay, told to the customer (WCAG 2.2.1): two minutes before it is up the
 * live region says so without moving focus, and once it is up the element reads the session
 * again and shows it ended, instead of a form that takes a card only to refuse it.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayForm } from '../pay-form/pay-form.js';
import { closeSession, createSession } from '../test/checkout-fixture.js';
import { autofill, button, card, errorText, field, json, message, mount, part, readsSession, secondsLeft, type, viewsUntilExtended, watchFetch } from '../test/harness.js';
import '../index.js';

const EXPIRING = 'This payment expires in less than 2 minutes.';
const FIX = 'Check the highlighted fields.';
const CUSTOMER = { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' };
const pause = (ms: number): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, ms));

async function shown(session: string): Promise<PayForm> {
  const form = document.createElement('pay-form');
  form.session = session;
  const ready = oneEvent(form, 'pay-ready');
  await fixture(html`<div>${form}</div>`);
  await ready;
  return form;
}

describe('a session’s time to pay', () => {
  it('is told once less than two minutes are left, focus left in the field the customer is in', async () => {
    const form = await shown(await createSession({ ttl_seconds: 60 }));
    const number = form.shadowRoot!.querySelector<HTMLInputElement>('#number')!;
    number.focus();
    await waitUntil(() => message(form) === EXPIRING, `not told: "${message(form)}"`, { timeout: 3000 });
    expect(form.shadowRoot!.activeElement).to.equal(number);
    expect(form.phase).to.equal('ready');
  });

  it('is not told while more than two minutes are left', async () => {
    const form = await shown(await createSession({ ttl_seconds: 600 }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(message(form)).to.equal('');
  });

  it('is not put off by a decline: the end stays where the companion set it', async () => {
    const session = await createSession();
    // Five seconds left as the form shows; the decline's answer comes three seconds later.
    const calls = watchFetch((call, pass) => {
      if (call.method === 'GET' && call.url.includes(`/sessions/${session}`) && calls.length === 1) return pass().then(async (answer) => json(200, { ...(await answer.json()), expires_in_seconds: 5 }));
      if (call.method === 'POST' && call.url.endsWith('/pay')) return pass().then(async (answer) => (await new Promise((resolve) => setTimeout(resolve, 3000)), answer));
      return undefined;
    });
    try {
      const form = await shown(session);
      const declined = oneEvent(form, 'pay-failure');
      autofill(form, card('4000000000000002'));
      button(form).click();
      await declined;
      // Said over the decline, the end would hide why the card was refused.
      expect(message(form)).to.not.equal(EXPIRING);
      await closeSession(session);
      // Counted from the decline's view, the end would come at 3 + 5 + 1 s; it comes at 5 + 1.
      await waitUntil(() => form.phase === 'closed', 'the end was put off by the decline', { timeout: 4500 });
    } finally {
      calls.restore();
    }
  });

  it('ends the form once it is up: the session is read again and shows as ended', async () => {
    const session = await createSession();
    // The companion's view, but with one second left.
    const calls = watchFetch((call, pass) =>
      call.method === 'GET' && call.url.includes(`/sessions/${session}`) && calls.length === 1
        ? pass().then(async (answer) => json(200, { ...(await answer.json()), expires_in_seconds: 1 }))
        : undefined,
    );
    try {
      const form = await shown(session);
      expect(form.shadowRoot!.querySelector('#number'), 'payable at first').to.not.equal(null);
      // Its time is up at the companion too: the shop closed it meanwhile.
      await closeSession(session);
      const ended = oneEvent(form, 'pay-error');
      expect((await ended).detail.code).to.equal('closed');
      await waitUntil(() => message(form) === 'This payment is no longer available.', `not ended: "${message(form)}"`);
      expect(form.phase).to.equal('closed');
      expect(form.shadowRoot!.querySelector('#number'), 'no card taken').to.equal(null);
    } finally {
      calls.restore();
    }
  });

  it('keeps what the customer typed, and where they are, when more time was given in another tab', async () => {
    // A minute at the companion; three seconds as this tab read it, before another tab asked for more.
    const session = await createSession({ ttl_seconds: 60 });
    const calls = viewsUntilExtended(session, (view) => ({ ...view, expires_in_seconds: 3 }));
    try {
      const form = await mount(session);
      await type(field(form, 'number'), '4242 4242');
      field(form, 'exp').focus();
      await form.updateComplete;
      expect(errorText(form, 'number')).to.equal('The card number is incomplete.');
      // The other tab: the customer pressed "I need more time" there.
      expect((await fetch(`/api/checkout/sessions/${session}/extend`, { method: 'POST' })).status).to.equal(200);
      await waitUntil(() => message(form) === 'You now have 10 minutes to pay.', `not told: "${message(form)}"`, { timeout: 6000 });
      await form.updateComplete;
      expect(form.phase).to.equal('ready');
      // The same fields, not new empty ones under the old brand and error.
      expect([field(form, 'number').value, errorText(form, 'number'), form.brand?.id]).to.deep.equal(['4242 4242', 'The card number is incomplete.', 'visa']);
      expect(form.shadowRoot!.activeElement === field(form, 'exp'), `focus on <${form.shadowRoot!.activeElement?.localName}>`).to.equal(true);
    } finally {
      calls.restore();
    }
  });

  it('says the time given elsewhere in a form still in the page, the one the customer was in removed while the session was read', async () => {
    const session = await createSession({ ttl_seconds: 60 });
    // Three seconds as this tab read it, until another tab asked for more; then the end's reads wait to be let go.
    const held: (() => void)[] = [];
    const calls = viewsUntilExtended(session, (view) => ({ ...view, expires_in_seconds: 3 }), (pass) => new Promise<void>((resolve) => held.push(resolve)).then(pass));
    try {
      const staying = await mount(session);
      const leaving = await mount(session);
      // The customer is in the second form: the one that would speak for the session.
      field(leaving, 'number').focus();
      expect((await fetch(`/api/checkout/sessions/${session}/extend`, { method: 'POST' })).status).to.equal(200);
      await waitUntil(() => held.length > 0, 'the end read nothing', { timeout: 6000 });
      // The page takes that form away while the session is read.
      leaving.remove();
      await pause(50);
      held.forEach((release) => release());
      await waitUntil(() => message(staying) === 'You now have 10 minutes to pay.', `not told in the form left: "${message(staying)}"`, { timeout: 3000 });
      expect(staying.phase).to.equal('ready');
    } finally {
      calls.restore();
    }
  });

  it('is told once the summary of the fields to fix is gone, when it came due over it', async () => {
    const session = await createSession({ customer: {} });
    // Three seconds from the end's warning as the form shows.
    const left = secondsLeft(session, 123);
    try {
      const form = await mount(session);
      const due = Date.now() + 3000;
      button(form).click();
      await waitUntil(() => message(form) === FIX, `no summary: "${message(form)}"`);
      await pause(due + 500 - Date.now());
      // Due, but said over the summary it would hide what to fix before it was heard.
      expect(message(form)).to.equal(FIX);
      autofill(form, { ...card('4242424242424242'), ...CUSTOMER });
      await form.updateComplete;
      // No field left to fix: the summary is gone, and the end is said at once.
      expect(message(form)).to.equal(EXPIRING);
    } finally {
      left.restore();
    }
  });

  it('joins a decline still showing once that was heard, rather than be dropped behind it', async () => {
    const session = await createSession();
    const left = secondsLeft(session, 121);
    try {
      const form = await mount(session);
      const declined = oneEvent(form, 'pay-failure');
      autofill(form, card('4000000000000002'));
      button(form).click();
      const { message: decline } = (await declined).detail;
      await form.updateComplete;
      expect(message(form), 'the decline first, alone').to.equal(decline);
      // The customer starts correcting: the decline stays, and the end is said with it.
      autofill(form, { number: '4242424242424242' });
      await waitUntil(() => message(form) === `${decline} ${EXPIRING}`, `not told: "${message(form)}"`, { timeout: 8000 });
      expect(form.alarming, 'still the decline').to.equal(true);
    } finally {
      left.restore();
    }
  });

  it('is let go with a form the page removes while the customer is in a field they typed in', async () => {
    const session = await createSession();
    // Its end three seconds away: armed again out of the page (by the update its field's blur
    // makes as it goes), the removed form would read the session then, and be kept till then.
    const calls = watchFetch((call, pass) =>
      readsSession(call, session)
        ? pass().then(async (answer) => json(200, { ...(await answer.json()), expires_in_seconds: 2 }))
        : undefined,
    );
    try {
      const form = await mount(session);
      await type(field(form, 'number'), '4242');
      await form.updateComplete;
      const before = calls.length;
      form.remove();
      await form.updateComplete;
      await pause(3500);
      expect(calls.slice(before).map(({ method, url }) => `${method} ${url}`), 'read out of the page').to.deep.equal([]);
    } finally {
      calls.restore();
    }
  });

  it('puts the focus the customer had in a field on the message saying the payment ended (WCAG 2.4.3)', async () => {
    const session = await createSession({ customer: {} });
    const left = secondsLeft(session, 2);
    try {
      const form = await mount(session);
      form.shadowRoot!.querySelector<HTMLInputElement>('#fname')!.focus();
      await closeSession(session);
      await waitUntil(() => form.phase === 'closed', 'not ended', { timeout: 5000 });
      await form.updateComplete;
      expect(message(form)).to.equal('This payment is no longer available.');
      // Compared as booleans: an element in a failed assertion is more than the runner can report.
      expect(document.activeElement === form, `dropped to <${document.activeElement?.localName}>`).to.equal(true);
      expect(form.shadowRoot!.activeElement === part(form, '[part=message]'), 'on the message').to.equal(true);
    } finally {
      left.restore();
    }
  });
});
