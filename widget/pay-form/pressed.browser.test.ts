/**
 * A press on a button of the form does what the button says, though leaving the field it was in
 * shows that field's error above it: shown as the press began (the focus leaving at its
 * mousedown, a tap's too), the error moved the button down under the pointer, and the release
 * fell beside it, a click on nothing. Real mouse presses (Playwright's), at the button's centre
 * (a tap's mousedown and mouseup come at its end, with the same effect).
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { autofill, button, card, errorText, field, focused, message, mount, press, type, viewsUntilExtended, watchFetch } from '../test/harness.js';
import { createSession } from '../test/checkout-fixture.js';

const INCOMPLETE = 'The expiry date is incomplete.';

/** Presses and releases the mouse at the centre of `target`, as it was before the press. */
async function click(target: Element): Promise<void> {
  const { x, y, width, height } = target.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(x + width / 2), Math.round(y + height / 2)] });
}

/** As wide as a phone's: the expiry's error takes two lines, 35 px, more than half the button's height. */
const narrow = (form: HTMLElement): void => void (form.style.cssText = 'display: block; width: 320px');

/** The `click`s that reach `target`. */
function clicks(target: EventTarget): Event[] {
  const seen: Event[] = [];
  target.addEventListener('click', (event) => seen.push(event));
  return seen;
}

describe('<pay-form> pressed as a field it leaves shows its error', () => {
  afterEach(() => resetMouse());

  it('pays (checks) at a press of Pay as the half-typed expiry is left', async () => {
    const form = await mount();
    narrow(form);
    await type(field(form, 'number'), '4242424242424242');
    await type(field(form, 'exp'), '12');
    const pressed = clicks(button(form));
    await click(button(form));
    await form.updateComplete;
    expect(pressed, 'the press reached the button').to.have.length(1);
    expect([message(form), errorText(form, 'exp'), focused(form)]).to.deep.equal(['Check the highlighted fields.', INCOMPLETE, 'exp']);
  });

  it('asks for more time at a press of "I need more time" as the half-typed expiry is left, and then shows its error', async () => {
    const session = await createSession({ ttl_seconds: 60 });
    // Three seconds left as the form reads the session, until it is extended: the offer comes at once.
    const calls = viewsUntilExtended(session, (view) => ({ ...view, expires_in_seconds: 3 }));
    try {
      const form = await mount(session);
      narrow(form);
      await type(field(form, 'number'), '4242424242424242');
      await type(field(form, 'exp'), '12');
      const offered = await waitUntil(() => form.shadowRoot!.querySelector<HTMLButtonElement>('[part~=more-time]'), 'no offer of more time').then(
        () => form.shadowRoot!.querySelector<HTMLButtonElement>('[part~=more-time]')!,
      );
      const pressed = clicks(offered);
      await click(offered);
      expect(pressed, 'the press reached the button').to.have.length(1);
      await waitUntil(() => message(form) === 'You now have 10 minutes to pay.', `not given: "${message(form)}"`);
      expect(calls.filter(({ url }) => url.endsWith('/extend'))).to.have.length(1);
      expect(errorText(form, 'exp'), 'the field left shows its error after the press').to.equal(INCOMPLETE);
    } finally {
      calls.restore();
    }
  });

  it('shows the error at once when the field is left by keyboard after a press whose release the page never heard', async () => {
    const form = await mount();
    await type(field(form, 'exp'), '12');
    // Held on the form's own text, not released (the release fell on a select's list, another origin's frame).
    const { x, y } = form.getBoundingClientRect();
    await sendMouse({ type: 'move', position: [Math.round(x + 2), Math.round(y + 2)] });
    await sendMouse({ type: 'down' });
    field(form, 'exp').focus();
    await press('Tab');
    await form.updateComplete;
    await waitUntil(() => errorText(form, 'exp') === INCOMPLETE, `not shown: "${errorText(form, 'exp')}"`, { timeout: 1000 });
  });

  it('still shows the error at once when the field is left by keyboard', async () => {
    const form = await mount();
    await type(field(form, 'exp'), '12');
    await press('Tab');
    await form.updateComplete;
    expect(errorText(form, 'exp')).to.equal(INCOMPLETE);
  });
});

describe('<pay-form> clicked again as a decline is answered', () => {
  it('takes the rest of a double click a decline answered at once as the same click, and a click after typing as a new try', async () => {
    const form = await mount();
    const calls = watchFetch();
    try {
      autofill(form, card('4000000000000002'));
      const declined = oneEvent(form, 'pay-failure');
      button(form).click();
      await declined;
      // The second click of a double click, right after the decline: no second attempt of the same card.
      button(form).click();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(calls.filter((call) => call.url.endsWith('/pay')), 'one attempt').to.have.length(1);
      // The customer types (another card): the next click pays at once.
      autofill(form, card('4242424242424242'));
      const paid = oneEvent(form, 'pay-success');
      button(form).click();
      await paid;
      expect(calls.filter((call) => call.url.endsWith('/pay'))).to.have.length(2);
    } finally {
      calls.restore();
    }
  });
});
