// A click that finds another window's attempt of its session under way: the companion answers that
// attempt's state, `joined`, and sends nothing of this click's card. Its decline is not this card's.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { decideChallenge } from '../test/checkout-fixture.js';
import { autofill, button, card, message, mount, record, type FetchCall, watchFetch } from '../test/harness.js';

const isPay = (call: FetchCall): boolean => call.url.endsWith('/pay');

describe('<pay-form> joining another window’s attempt', () => {
  let calls: ReturnType<typeof watchFetch> | undefined;
  afterEach(() => calls?.restore());

  it('says no payment was taken when that attempt is declined, tells the page nothing of it, and pays at the next click', async () => {
    const form = await mount();
    form.pollInterval = 200;
    let challenge = '';
    let otherSent = false;
    // Another window pays first, with a card its bank challenges; the challenge stays open.
    calls = watchFetch((call, pass) => {
      if (!isPay(call) || otherSent) return undefined;
      otherSent = true;
      const other = { ...(call.body as Record<string, unknown>), card: { ...(call.body as { card: object }).card, number: '4000000000003220' } };
      return fetch(call.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(other) })
        .then((answer) => answer.json())
        .then((answer: { redirect_url: string }) => ((challenge = answer.redirect_url), pass()));
    });
    const told = record(form, 'pay-failure');
    const redirects = record(form, 'pay-redirect');
    autofill(form, card('4242424242424242'));
    button(form).click();
    await waitUntil(() => challenge !== '' && form.phase === 'confirming', 'the click joins the other attempt and confirms it');
    expect(redirects, 'not sent to the other window’s bank page').to.have.length(0);
    await decideChallenge(challenge, 'failure');
    await waitUntil(() => form.phase === 'ready' && message(form) !== '', 'the other attempt’s end is read', { timeout: 10_000 });
    expect(message(form)).to.equal('No payment was taken. You can pay now.');
    expect(told, 'the page hears no decline of this card').to.have.length(0);

    // What was typed here is back but the security code (never held while confirming): typed again, it pays.
    expect((form.field('number') as HTMLInputElement).value).to.equal('4242 4242 4242 4242');
    autofill(form, { cvv: '123' });
    const paid = oneEvent(form, 'pay-success');
    button(form).click();
    expect((await paid).detail.orderId).to.match(/:2$/);
  });
});
