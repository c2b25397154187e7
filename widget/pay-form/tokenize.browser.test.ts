// Tokenize mode through the real companion and sandbox: the card goes from the browser to the
// sandbox's tokenizer, the companion gets only the token; a tokenizer out of reach sends the
// customer to the hosted page.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { autofill, button, card, errorText, json, mount, stay, watchFetch } from '../test/harness.js';

describe('<pay-form> in tokenize mode', () => {
  let calls: ReturnType<typeof watchFetch> | undefined;
  afterEach(() => calls?.restore());

  it('sends the card to the tokenizer and pays the session with the token', async () => {
    const form = await mount({ merchant: 'tokenize' });
    calls = watchFetch();
    const success = oneEvent(form, 'pay-success');
    autofill(form, card('4242424242424242'));
    button(form).click();
    await success;
    const [tokenize, pay] = calls;
    expect(tokenize!.url).to.match(/\/api\/v1\/sdk\/tokenize$/);
    expect(tokenize!.body).to.include({ card_number: '4242424242424242', platform: 'web' });
    expect(pay!.url).to.match(/\/pay$/);
    expect((pay!.body as { card: object }).card).to.have.keys(['token']);
    expect(JSON.stringify(pay!.body)).not.to.contain('4242424242424242');
  });

  it('goes to the hosted page when the tokenizer cannot be reached', async () => {
    const form = await mount({ merchant: 'tokenize' });
    calls = watchFetch((call) => (call.url.endsWith('/sdk/tokenize') ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    const redirect = stay(form);
    autofill(form, card('4242424242424242'));
    button(form).click();
    expect((await redirect).detail.reason).to.equal('hosted');
    expect(calls.filter((call) => call.url.endsWith('/pay'))).to.deep.equal([]);
  });

  it('goes to the hosted page when the tokenizer does not answer in time, instead of waiting on it for ever', async () => {
    const form = await mount({ merchant: 'tokenize' });
    // Time stands still: the test ends the tokenizer's time limit itself (each timeout signal is one the test can fire).
    const limits = new Map<AbortSignal, AbortController>();
    const timeout = AbortSignal.timeout;
    AbortSignal.timeout = () => {
      const limit = new AbortController();
      limits.set(limit.signal, limit);
      return limit.signal;
    };
    let asked: { signal?: AbortSignal | null } | undefined;
    calls = watchFetch();
    const send = window.fetch;
    // A widget host that takes the connection and never answers: only the request's signal ends it.
    window.fetch = (input, init) => {
      if (!String(input).endsWith('/sdk/tokenize')) return send(input, init);
      asked = { signal: init?.signal };
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    };
    try {
      const redirect = stay(form);
      autofill(form, card('4242424242424242'));
      button(form).click();
      await waitUntil(() => asked, 'the tokenizer was not asked');
      const limit = asked!.signal && limits.get(asked!.signal);
      expect(limit, 'the tokenizer is asked with a time limit').to.be.instanceOf(AbortController);
      limit!.abort(new DOMException('The operation timed out.', 'TimeoutError'));
      expect((await redirect).detail.reason).to.equal('hosted');
      expect(calls.filter((call) => call.url.endsWith('/pay'))).to.deep.equal([]);
    } finally {
      AbortSignal.timeout = timeout;
      window.fetch = send;
    }
  });

  it('keeps a card number typed into the phone field on the page: named on submit, nothing tokenized or sent', async () => {
    const form = await mount({ merchant: 'tokenize', customer: {} });
    calls = watchFetch();
    autofill(form, { ...card('4242424242424242'), fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '4222 2222 2222 2' });
    button(form).click();
    await waitUntil(() => errorText(form, 'phone'), 'the phone was not refused');
    expect(errorText(form, 'phone')).to.equal('This looks like a card number: enter it only in the card number field.');
    expect(calls, 'nothing left the page').to.deep.equal([]);
  });

  it('tells the developer when the tokenizer refuses the widget key; the customer sees the calm message', async () => {
    const form = await mount({ merchant: 'tokenize' });
    // The sandbox's answer to a widget key it does not know.
    const refusal = { id: 'unknown_widget', errorMessage: 'No widget with this key', hint: 'check the widget key' };
    calls = watchFetch((call) => (call.url.endsWith('/sdk/tokenize') ? Promise.resolve(json(401, refusal)) : undefined));
    const errors: string[] = [];
    const real = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      const error = oneEvent(form, 'pay-error');
      autofill(form, card('4242424242424242'));
      button(form).click();
      const { detail } = await error;
      expect(detail.code).to.equal('misconfigured');
      expect(detail.message).to.equal('Something went wrong. Please try again in a moment.');
      expect(detail.reason).to.contain('refused this page (HTTP 401 unknown_widget: check the widget key): set the companion\'s PAYFORM_GATEWAY_WIDGET_KEY');
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
      expect(calls.filter((call) => call.url.endsWith('/pay'))).to.deep.equal([]);
    } finally {
      console.error = real;
    }
  });
});
