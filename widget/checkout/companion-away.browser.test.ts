/**
 * A session read that the companion does not answer while the browser is online (the companion
 * down or restarting, a proxy's 502–504 during a deploy): the element says once that it is trying
 * again, reads the session again by itself, a little later each time, and shows the form once the
 * companion answers; still away after a while, it asks the customer to try again. No payment is
 * ever sent by itself.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { CheckoutElement } from './checkout-element.js';
import { createSession } from '../test/checkout-fixture.js';
import { busy, button, message, record, watchFetch } from '../test/harness.js';
import '../index.js';

const TRYING = 'Could not reach the payment service. Trying again…';
const TRY_AGAIN = 'Could not reach the payment service. Please try again.';

/**
 * The companion away until `back()`: its session reads fail as a dropped connection, then as a
 * proxy's 503, by turns; `proxied`: each as a 503.
 */
function companionAway(proxied = false): { back(): void; reads: () => number; posts: () => number; restore(): void } {
  let away = true;
  let turn = 0;
  const calls = watchFetch((call) => {
    if (!away || !call.url.includes('/api/checkout/')) return undefined;
    return proxied || turn++ % 2 ? Promise.resolve(new Response('Service Unavailable', { status: 503 })) : Promise.reject(new TypeError('Failed to fetch'));
  });
  return {
    back: () => void (away = false),
    reads: () => calls.filter((call) => call.method === 'GET' && call.url.includes('/api/checkout/sessions/')).length,
    posts: () => calls.filter((call) => call.method === 'POST').length,
    restore: () => calls.restore(),
  };
}

/** Every text the element's live region shows from now on. */
function said(element: Element): string[] {
  const texts: string[] = [];
  const region = element.shadowRoot!.querySelector('[part=message]')!;
  new MutationObserver(() => texts.push(region.textContent!.trim())).observe(region, { subtree: true, childList: true, characterData: true });
  return texts;
}

async function formOf(session: string, pollInterval: number, pollTimeout: number): Promise<CheckoutElement> {
  const form = Object.assign(document.createElement('pay-form'), { session, pollInterval, pollTimeout }) as CheckoutElement;
  await fixture(form);
  return form;
}

describe('a session read the companion does not answer, online', () => {
  it('says once that it is trying again, and shows the form by itself once the companion answers', async () => {
    const session = await createSession();
    const companion = companionAway();
    try {
      const errors = record(document, 'pay-error');
      const form = await formOf(session, 40, 60_000);
      // The first read of the file loads the paying chunk, which a busy machine takes more than a second to serve.
      await waitUntil(() => message(form) === TRYING, `not said: ${message(form)}`, { timeout: 5000 });
      const texts = said(form);
      // Read again without a click, more than once: a dropped connection, a 503.
      await waitUntil(() => companion.reads() >= 4, 'not read again', { timeout: 5000 });
      companion.back();
      await waitUntil(() => form.shadowRoot!.querySelector('#number'), 'the form did not show', { timeout: 5000 });
      expect(message(form)).to.equal('');
      // Said once: the live region stayed on its words from attempt to attempt.
      expect(texts.filter((text) => text === TRYING)).to.deep.equal([]);
      expect(errors.map(({ code, message }) => `${code}: ${message}`)).to.deep.equal([`network: ${TRYING}`]);
      expect(companion.posts(), 'nothing paid').to.equal(0);
    } finally {
      companion.restore();
    }
  });

  it('with a form and a button of one session: said once, by the form, and both show once the companion answers', async () => {
    const session = await createSession();
    // A proxy's 503 each time: both elements meet it at once (a dropped connection is asked again first).
    const companion = companionAway(true);
    try {
      const errors = record(document, 'pay-error');
      const page = await fixture(html`<div>
        <pay-form .session=${session} .pollInterval=${40} .pollTimeout=${60_000}></pay-form>
        <pay-button .session=${session} .pollInterval=${40} .pollTimeout=${60_000}></pay-button>
      </div>`);
      const elements = [...page.children] as CheckoutElement[];
      await waitUntil(() => elements.some((element) => message(element) === TRYING), 'not said', { timeout: 5000 });
      await waitUntil(() => companion.reads() >= 5, 'not read again', { timeout: 5000 });
      // One live region says it, the form's, and the page hears it once; the button waits on the same reads.
      expect(elements.map(message)).to.deep.equal([TRYING, '']);
      expect(errors.map(({ message }) => message)).to.deep.equal([TRYING]);
      companion.back();
      await waitUntil(() => elements.every((element) => element.view), 'not both shown', { timeout: 5000 });
      expect(elements.map(message)).to.deep.equal(['', '']);
      expect(companion.posts(), 'nothing paid').to.equal(0);
    } finally {
      companion.restore();
    }
  });

  it('asks the customer to try again when the companion stays away, and reads no more by itself', async () => {
    const session = await createSession();
    const companion = companionAway();
    try {
      const form = await formOf(session, 40, 600);
      await waitUntil(() => message(form) === TRY_AGAIN, `not asked to try again: ${message(form)}`, { timeout: 5000 });
      const reads = companion.reads();
      expect(reads, 'read again before giving up').to.be.greaterThan(2);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(companion.reads(), 'no read after giving up').to.equal(reads);
      // The customer's click reads it again (leave() in paying.ts): the button is on offer.
      expect(busy(button(form))).to.equal(false);
    } finally {
      companion.restore();
    }
  });
});
