// Tokenize mode through the real companion and sandbox: the card goes from the browser to the
// sandbox's tokenizer, the companion gets only the token; a tokenizer out of reach sends the
// customer to the hosted page.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { signTokenizeBody } from '@payform/card/tokenize';
import { autofill, button, card, errorText, field, focused, json, message, mount, press, stay, watchConsoleErrors, watchFetch } from '../test/harness.js';

/**
 * The sandbox's tokenizer gets the card with `changes`, signed anew with the widget key the
 * request names: its own answer to a card the form's checks would not let through, as a gateway
 * that judges a card otherwise (its clock, its rules for a brand) gives. Undone by the returned function.
 */
function tokenizerGets(changes: Record<string, string | number>): () => void {
  const send = window.fetch;
  window.fetch = async (input, init) => {
    if (!String(input).endsWith('/sdk/tokenize')) return send(input, init);
    const headers = new Headers(init!.headers);
    const body = { ...JSON.parse(String(init!.body)), ...changes };
    headers.set('X-Sign', await signTokenizeBody(headers.get('X-Widget-Id')!, body));
    return send(input, { ...init, headers, body: JSON.stringify(body) });
  };
  return () => void (window.fetch = send);
}

describe('<pay-form> in tokenize mode', () => {
  let calls: ReturnType<typeof watchFetch> | undefined;

  /** Pays a tokenize session whose tokenizer answers `status` with `refusal`: the page's pay-error, and the console's errors. */
  async function refusedByTokenizer(status: number, refusal: Record<string, string>) {
    const form = await mount({ merchant: 'tokenize' });
    calls = watchFetch((call) => (call.url.endsWith('/sdk/tokenize') ? Promise.resolve(json(status, refusal)) : undefined));
    const errors = watchConsoleErrors();
    try {
      const error = oneEvent(form, 'pay-error');
      autofill(form, card('4242424242424242'));
      button(form).click();
      return { detail: (await error).detail, errors: [...errors] };
    } finally {
      errors.restore();
    }
  }
  let undo: (() => void) | undefined;
  afterEach(() => {
    calls?.restore();
    undo?.();
    calls = undo = undefined;
  });

  // Each refusal of the card the sandbox's tokenizer makes (tokenizer/tokenize.ts), on the field it is about.
  for (const [refusal, changes, name, words] of [
    ['invalid_cvv', { card_cvv: '1234' }, 'cvv', 'The security code is invalid.'],
    ['card_expired', { card_exp_year: 20 }, 'exp', 'This card has expired.'],
    ['invalid_card_number', { card_number: '4242424242424241' }, 'number', 'The card number is invalid.'],
  ] as const) {
    it(`shows the tokenizer's ${refusal} on its field, focused, and sends nothing to pay`, async () => {
      const form = await mount({ merchant: 'tokenize' });
      undo = tokenizerGets(changes);
      calls = watchFetch();
      const error = oneEvent(form, 'pay-error');
      autofill(form, card('4242424242424242'));
      button(form).click();
      const { detail } = await error;
      await form.updateComplete;
      expect(detail).to.deep.equal({ code: 'rejected', message: 'Check the highlighted fields.' });
      expect(errorText(form, name)).to.equal(words);
      expect(field(form, name).getAttribute('aria-invalid')).to.equal('true');
      expect(focused(form)).to.equal(name);
      expect(message(form)).to.equal('Check the highlighted fields.');
      expect(calls.map((call) => call.url.replace(/^.*\//, ''))).to.deep.equal(['tokenize']);
    });
  }

  it("says the tokenizer's refusal in the form's language, and keeps it on the field until the customer changes it", async () => {
    const form = await mount({ merchant: 'tokenize' }, { lang: 'uk' });
    undo = tokenizerGets({ card_exp_year: 20 });
    const error = oneEvent(form, 'pay-error');
    autofill(form, card('4242424242424242'));
    button(form).click();
    await error;
    await form.updateComplete;
    expect(errorText(form, 'exp')).to.equal('Термін дії картки минув.');
    expect(focused(form)).to.equal('exp');
    // Left as it was: still refused.
    await press('Tab');
    expect(focused(form)).to.equal('cvv');
    expect(errorText(form, 'exp')).to.equal('Термін дії картки минув.');
    autofill(form, { exp: `01/${String(new Date().getFullYear() + 4).slice(2)}` });
    await form.updateComplete;
    expect(errorText(form, 'exp')).to.equal('');
  });

  it('keeps the calm message for a refusal that names nothing the customer can correct, and tells the developer which', async () => {
    const form = await mount({ merchant: 'tokenize' });
    // A month the form would not send: the sandbox answers invalid_request.
    undo = tokenizerGets({ card_exp_month: 13 });
    calls = watchFetch();
    const errors = watchConsoleErrors();
    try {
      const error = oneEvent(form, 'pay-error');
      autofill(form, card('4242424242424242'));
      button(form).click();
      const { detail } = await error;
      expect(detail.code).to.equal('rejected');
      expect(detail.message).to.equal('The payment could not be started. Please try again.');
      expect(detail.reason).to.match(/^the gateway's tokenizer at \S+ refused the card \(HTTP 400 invalid_request\)/);
      expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
      await form.updateComplete;
      for (const name of ['number', 'exp', 'cvv'] as const) expect(errorText(form, name), name).to.equal('');
      expect(calls.filter((call) => call.url.endsWith('/pay'))).to.deep.equal([]);
    } finally {
      errors.restore();
    }
  });

  it("tells the developer when the tokenizer cannot seal the card for the companion: the widget key's project and the companion's secret differ", async () => {
    // The sandbox's answer when the widget key's project has no 32-byte API secret.
    const { detail, errors } = await refusedByTokenizer(422, { id: 'rich_unavailable', errorMessage: 'Rich answers are encrypted with the project’s secret key, which is not 32 bytes long' });
    expect(detail.code).to.equal('misconfigured');
    expect(detail.message).to.equal('Something went wrong. Please try again in a moment.');
    expect(detail.reason).to.contain('(HTTP 422 rich_unavailable): give the companion the widget key (PAYFORM_GATEWAY_WIDGET_KEY) and API secret (PAYFORM_GATEWAY_API_SECRET) of one gateway project');
    expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
  });

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

  it('tells a customer offline so: no hosted page, which cannot load either, and no advice on the page’s policy', async () => {
    const form = await mount({ merchant: 'tokenize' });
    calls = watchFetch((call) => (call.url.endsWith('/sdk/tokenize') ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    const warn = console.warn;
    const warned: string[] = [];
    console.warn = (...args: unknown[]) => void warned.push(args.join(' '));
    try {
      const redirects: unknown[] = [];
      form.addEventListener('pay-redirect', (event) => (event.preventDefault(), redirects.push(event)));
      const error = oneEvent(form, 'pay-error');
      autofill(form, card('4242424242424242'));
      button(form).click();
      expect((await error).detail.code).to.equal('network');
      expect(redirects, 'sent to the hosted page').to.deep.equal([]);
      expect(warned.filter((line) => line.includes('tokenizer')), 'told the page blocks the tokenizer').to.deep.equal([]);
    } finally {
      console.warn = warn;
      delete (navigator as { onLine?: boolean }).onLine;
    }
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
    autofill(form, { ...card('4242424242424242'), fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '3056 930902 5904' });
    button(form).click();
    await waitUntil(() => errorText(form, 'phone'), 'the phone was not refused');
    expect(errorText(form, 'phone')).to.equal('This looks like a card number: enter it only in the card number field.');
    expect(calls, 'nothing left the page').to.deep.equal([]);
  });

  it('tells the developer when the tokenizer refuses the widget key; the customer sees the calm message', async () => {
    // The sandbox's answer to a widget key it does not know.
    const { detail, errors } = await refusedByTokenizer(401, { id: 'unknown_widget', errorMessage: 'No widget with this key', hint: 'check the widget key' });
    expect(detail.code).to.equal('misconfigured');
    expect(detail.message).to.equal('Something went wrong. Please try again in a moment.');
    expect(detail.reason).to.contain('refused this page (HTTP 401 unknown_widget: check the widget key): set the companion\'s PAYFORM_GATEWAY_WIDGET_KEY');
    expect(errors).to.deep.equal([`<pay-form>: ${detail.reason}`]);
    expect(calls!.filter((call) => call.url.endsWith('/pay'))).to.deep.equal([]);
  });
});
