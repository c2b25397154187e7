/**
 * A page with `<pay-form>` and `<pay-button>` of one session: what happens to the session is
 * heard once in the page (WCAG 4.1.3), as a decline is (the form says it, the button nothing),
 * though both show it.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayButton } from '../pay-button/pay-button.js';
import type { PayForm } from '../pay-form/pay-form.js';
import { closeSession, createSession } from '../test/checkout-fixture.js';
import { autofill, button, card, heard, message, mount, secondsLeft } from '../test/harness.js';

const EXPIRING = 'This payment expires in less than 2 minutes.';
const CLOSED = 'This payment is no longer available.';

/** A form and a button of a new session, both shown, with what `seconds` left to pay (the companion's own when none). */
async function both(seconds?: number): Promise<{ form: PayForm; payButton: PayButton; restore(): void }> {
  const session = await createSession();
  const left = seconds === undefined ? { restore() {} } : secondsLeft(session, seconds);
  const form = await mount(session);
  const payButton = await mount(session, {}, 'pay-button');
  return { form, payButton, restore: () => left.restore() };
}

const times = (words: string[], said: string): number => words.filter((each) => each === said).length;

describe('a session with a form and a button in the page', () => {
  it('says "Payment successful" once, though both show it', async () => {
    const { form, payButton, restore } = await both();
    try {
      const words = heard(form, payButton);
      const paid = oneEvent(form, 'pay-success');
      autofill(form, card('4242424242424242'));
      // Pressed as a customer does: focus goes from the button to the form's message, read there.
      button(form).focus();
      button(form).click();
      await paid;
      await waitUntil(() => message(payButton) === 'Payment successful', 'the button does not show it');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(times(words, 'Payment successful'), words.join(' | ')).to.equal(1);
    } finally {
      restore();
    }
  });

  it('says that the payment expires soon once, in the form', async () => {
    // Due two seconds after they show.
    const { form, payButton, restore } = await both(122);
    try {
      const words = heard(form, payButton);
      await waitUntil(() => message(form) === EXPIRING, `not told: "${message(form)}"`, { timeout: 5000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(times(words, EXPIRING), words.join(' | ')).to.equal(1);
    } finally {
      restore();
    }
  });

  it('says that the payment is no longer available once, both showing it ended', async () => {
    const { form, payButton, restore } = await both(3);
    try {
      const words = heard(form, payButton);
      await closeSession(form.session);
      await waitUntil(() => message(form) === CLOSED && message(payButton) === CLOSED, `not ended: "${message(form)}", "${message(payButton)}"`, { timeout: 6000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(times(words, CLOSED), words.join(' | ')).to.equal(1);
    } finally {
      restore();
    }
  });
});
