/**
 * A page with several elements of one session — `<pay-form>` and `<pay-button>`, as the demo's
 * checkout has — that the customer comes back to while a 3-D Secure challenge waits: going on with
 * the bank is offered once in the page, not once by each element. Elements of another session
 * offer their own.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { CheckoutElement } from './checkout-element.js';
import { collectFingerprint } from './fingerprint.js';
import { createSession } from '../test/checkout-fixture.js';
import '../index.js';

const CONTINUE = 'Continue with your bank';

/** A session whose payment waits for its 3-D Secure challenge, paid as another tab of the customer's would. */
async function challenged(): Promise<string> {
  const session = await createSession();
  const answer = await fetch(`/api/checkout/sessions/${session}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card: { number: '4000000000003220', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvv: '123' }, fingerprint: collectFingerprint() }),
  });
  expect(((await answer.json()) as { status: string }).status).to.equal('redirect');
  return session;
}

/** An element of `session` that gives up polling at once, so that it offers the challenge (as one back by the browser's Back does). */
function element(tag: 'pay-form' | 'pay-button', session: string): CheckoutElement {
  const made = document.createElement(tag);
  made.session = session;
  made.pollInterval = 50;
  made.pollTimeout = 100;
  return made;
}

const offers = (each: CheckoutElement): number => [...each.shadowRoot!.querySelectorAll('button')].filter((button) => button.textContent === CONTINUE).length;
const waiting = (each: CheckoutElement): boolean => each.phase === 'waiting';

describe('the offer of a challenge, on a page with several elements of its session', () => {
  it('is made once, by the card form, and moves to the hosted button when the form leaves the page', async () => {
    const session = await challenged();
    const button = element('pay-button', session);
    const form = element('pay-form', session);
    // The hosted button first in the page: the card form, where the customer paid, still offers.
    const page = await fixture(html`<div>${button}${form}</div>`);
    // The form reads the outcome for both (one-reader.browser.test.ts): the button confirms meanwhile.
    await waitUntil(() => waiting(form) && button.phase === 'confirming', 'polling did not give up', { timeout: 3000 });
    await Promise.all([form.updateComplete, button.updateComplete]);
    expect([offers(form), offers(button)]).to.deep.equal([1, 0]);

    form.remove();
    await button.updateComplete;
    // It reads in the form's stead, and offers going on with the bank at once: polling gave up.
    expect(offers(button), 'the offer is not lost with the form').to.equal(1);
    page.append(form);
    await waitUntil(() => waiting(form), 'the form did not read the session again', { timeout: 3000 });
    await Promise.all([form.updateComplete, button.updateComplete]);
    expect(offers(form) + offers(button)).to.equal(1);
  });

  it('is made by each session on a page with two of them', async () => {
    const [first, second] = await Promise.all([challenged(), challenged()]);
    const forms = [element('pay-form', first), element('pay-form', second)];
    await fixture(html`<div>${forms}</div>`);
    await waitUntil(() => forms.every(waiting), 'polling did not give up', { timeout: 3000 });
    await Promise.all(forms.map((each) => each.updateComplete));
    expect(forms.map(offers)).to.deep.equal([1, 1]);
  });
});
