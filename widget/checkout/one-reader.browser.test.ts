/**
 * A page with `<pay-form>` and `<pay-button>` of one session, loaded (or reloaded) while its
 * payment is pending: one of them reads the outcome for both, and only it offers "Check again"
 * once polling gives up; the page hears the end once.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { CheckoutElement } from './checkout-element.js';
import { collectFingerprint } from './fingerprint.js';
import { createSession, decideChallenge } from '../test/checkout-fixture.js';
import { message, readsSession, watchFetch } from '../test/harness.js';
import '../index.js';

/** A session whose payment waits for its 3-D Secure challenge, paid as another tab would: answers the challenge's address too. */
async function challenged(): Promise<{ session: string; challenge: string }> {
  const session = await createSession();
  const answer = await fetch(`/api/checkout/sessions/${session}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card: { number: '4000000000003220', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvv: '123' }, fingerprint: collectFingerprint() }),
  });
  const { status, redirect_url } = (await answer.json()) as { status: string; redirect_url: string };
  expect(status).to.equal('redirect');
  return { session, challenge: redirect_url };
}

function element(tag: 'pay-form' | 'pay-button', session: string, pollInterval: number, pollTimeout: number): CheckoutElement {
  const made = document.createElement(tag);
  made.session = session;
  Object.assign(made, { pollInterval, pollTimeout });
  return made;
}

const OFFLINE = 'You are offline. The outcome of your payment will show here once you are back online.';
const checkAgain = (each: CheckoutElement): number => [...each.shadowRoot!.querySelectorAll('button')].filter((button) => button.textContent === 'Check again').length;
const reads = (calls: { url: string; method: string }[], session: string): number => calls.filter((call) => readsSession(call, session)).length;

describe('a pending session with several elements in the page', () => {
  it('is read by one of them: the card form, whatever the others are set to', async () => {
    const { session } = await challenged();
    const calls = watchFetch();
    try {
      // The button would read every 20 ms; the form, which reads for both, every 10 s.
      const button = element('pay-button', session, 20, 60_000);
      const form = element('pay-form', session, 10_000, 60_000);
      await fixture(html`<div>${button}${form}</div>`);
      await waitUntil(() => form.phase === 'confirming' && button.phase === 'confirming', 'not confirming');
      const first = reads(calls, session);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(reads(calls, session) - first, 'nothing read but by the form').to.equal(0);
    } finally {
      calls.restore();
    }
  });

  it('offers "Check again" once, in the card form, and the page hears the end once', async () => {
    const { session, challenge } = await challenged();
    const button = element('pay-button', session, 50, 150);
    const form = element('pay-form', session, 50, 150);
    const heard: string[] = [];
    const listen = (event: Event): number => heard.push(`${event.type} ${(event.target as Element).localName}`);
    document.addEventListener('pay-success', listen);
    try {
      await fixture(html`<div>${button}${form}</div>`);
      await waitUntil(() => form.phase === 'waiting', 'polling did not give up', { timeout: 3000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await Promise.all([form.updateComplete, button.updateComplete]);
      expect([checkAgain(form), checkAgain(button)]).to.deep.equal([1, 0]);
      expect(message(form)).to.match(/^Your payment is still being confirmed/);
      expect(message(button), 'said once in the page').not.to.match(/still being confirmed/);

      await decideChallenge(challenge, 'success');
      form.shadowRoot!.querySelector<HTMLButtonElement>('.outcome button')!.click();
      await waitUntil(() => form.phase === 'success' && button.phase === 'success', 'the outcome did not show in both', { timeout: 3000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).to.deep.equal(['pay-success pay-form']);
      expect(message(button)).to.equal('Payment successful');
    } finally {
      document.removeEventListener('pay-success', listen);
    }
  });

  it('says the connection lost once, from the element that reads, and the other says so once it reads', async () => {
    const { session } = await challenged();
    const button = element('pay-button', session, 50, 60_000);
    const form = element('pay-form', session, 50, 60_000);
    await fixture(html`<div>${button}${form}</div>`);
    await waitUntil(() => form.phase === 'confirming' && button.phase === 'confirming', 'not confirming');
    let down = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !down });
    const calls = watchFetch((call) => (down && call.url.includes('/api/checkout/') ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    try {
      dispatchEvent(new Event('offline'));
      await Promise.all([form.updateComplete, button.updateComplete]);
      expect([message(form), message(button)]).to.deep.equal([OFFLINE, 'Confirming your payment…']);
      // The form leaves: the button reads now, and says it.
      form.remove();
      await waitUntil(() => message(button) === OFFLINE, `the button did not say it: ${message(button)}`);
      down = false;
      dispatchEvent(new Event('online'));
      await button.updateComplete;
      expect(message(button)).to.equal('Confirming your payment…');
    } finally {
      calls.restore();
      delete (navigator as { onLine?: boolean }).onLine;
    }
  });

  it('lets a follower taken out of the page stop at once, not at its reader\'s next read', async () => {
    const { session } = await challenged();
    // The form reads for both, once a minute: nothing it reads comes during this test.
    const button = element('pay-button', session, 60_000, 600_000);
    const form = element('pay-form', session, 60_000, 600_000);
    await fixture(html`<div>${form}${button}</div>`);
    await waitUntil(() => form.phase === 'confirming' && button.phase === 'confirming', 'not confirming');
    const following = button.poll();
    button.remove();
    await following;
    expect(button.phase).to.equal('confirming');
  });

  it('moves the reading to the button when the form leaves, and back when it comes again', async () => {
    const { session } = await challenged();
    const button = element('pay-button', session, 50, 150);
    const form = element('pay-form', session, 50, 150);
    const page = await fixture(html`<div>${button}${form}</div>`);
    await waitUntil(() => form.phase === 'waiting', 'polling did not give up', { timeout: 3000 });
    form.remove();
    await waitUntil(() => button.phase === 'waiting' && checkAgain(button) === 1, 'the button did not read in its stead', { timeout: 3000 });
    page.append(form);
    await waitUntil(() => form.phase === 'waiting', 'the form did not read the session again', { timeout: 3000 });
    await Promise.all([form.updateComplete, button.updateComplete]);
    expect([checkAgain(form), checkAgain(button)]).to.deep.equal([1, 0]);
  });
});
