// A <pay-form> of 0.3 on a companion of another version: 0.2's session view has no `version` and
// counts amounts in decimals (300 UAH is 300, where 0.3's says 30000), so the form would show a
// whole amount 100 times under. It shows none, cannot take payments, and tells the page why.
import { expect, fixture, oneEvent } from '@open-wc/testing';
import type { PayEventDetails } from '../events.js';
import { createSession } from '../test/checkout-fixture.js';
import { json, message, readsSession, watchConsoleErrors, watchFetch } from '../test/harness.js';

/** The real companion's view of the session as a 0.2 companion words it: decimals, and nothing 0.2 did not have. */
async function asOf02(answer: Response): Promise<Response> {
  const { version: _version, amount, expires_in_seconds: _expires, extendable: _extendable, challenge_url: _challenge, tokenizer: _tokenizer, ...rest } = await answer.json();
  return json(200, { ...rest, amount: amount / 100 });
}

/** A `<pay-form>` of the session whose view `served` rewrites: its `pay-error`, the console's errors, and what it shows. */
async function shown(served: (answer: Response) => Promise<Response>) {
  const session = await createSession({ amount: 30000, currency: 'UAH' });
  const calls = watchFetch((call, pass) => (readsSession(call, session) ? pass().then(served) : undefined));
  const errors = watchConsoleErrors();
  try {
    const form = Object.assign(document.createElement('pay-form'), { session });
    // Ready is what a form that read the view as its own says: the amount it shows is the failure.
    const told = Promise.race([oneEvent(form, 'pay-error'), oneEvent(form, 'pay-ready')]);
    await fixture(form);
    const event = await told;
    await form.updateComplete;
    expect(event.type, `shown: ${form.shadowRoot!.textContent!.replace(/\s+/g, ' ')}`).to.equal('pay-error');
    const reads = calls.filter((call) => readsSession(call, session)).map((call) => new URL(call.url, location.href).search);
    return { form, detail: (event as CustomEvent<PayEventDetails['pay-error']>).detail, errors: [...errors], reads };
  } finally {
    errors.restore();
    calls.restore();
  }
}

describe('<pay-form> reading a session view of another companion version', () => {
  it('shows no amount from a 0.2 view, says it cannot take payments, and names both versions and the fix once', async () => {
    const { form, detail, errors, reads } = await shown(asOf02);
    // Its read says its version, for a companion of another to log (a query: no CORS preflight).
    expect(reads).to.deep.equal(['?version=0.3']);
    const text = form.shadowRoot!.textContent!;
    expect(text).not.to.match(/3\.00|300/);
    expect(form.shadowRoot!.querySelector('[part~=button]')).to.equal(null);
    expect(message(form)).to.equal('This shop cannot accept this payment. Please contact the shop.');
    expect(detail.code).to.equal('misconfigured');
    expect(detail.message).to.equal('This shop cannot accept this payment. Please contact the shop.');
    expect(detail.reason).to.contain('answered a session view of no version, a payform companion 0.2’s or earlier (its amounts in decimals, where this widget reads minor units), but this <pay-form> reads session views of version 0.3 only');
    expect(detail.reason).to.contain(`serve this page the widget that companion serves (${location.origin}/widget/pay-form.js), or upgrade the companion to a release whose session view is 0.3`);
    expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
  });

  it('tells a view of a later version apart too, with the fix for that side', async () => {
    const { form, detail, errors } = await shown(async (answer) => json(200, { ...(await answer.json()), version: '0.4' }));
    expect(form.shadowRoot!.textContent).not.to.contain('300');
    expect(detail.code).to.equal('misconfigured');
    expect(detail.reason).to.contain('answered a session view of version 0.4, but this <pay-form> reads session views of version 0.3 only, and shows no amount it may misread: serve this page the widget that companion serves');
    expect(detail.reason).to.contain("or upgrade the page's @payform/widget to a release that reads session views of 0.4");
    expect(errors).to.have.length(1);
  });
});
