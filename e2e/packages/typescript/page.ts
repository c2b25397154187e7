/** The page of a merchant's Vite project in TypeScript, compiled (never run) by types.test.ts. */
import '@payform/widget';
import type { PayEventDetails, SessionView } from '@payform/widget';
import { checkNumber } from '@payform/card/fields';

const form = document.querySelector('pay-form');
if (form) {
  form.session = 'cs_from_your_backend';
  form.addEventListener('pay-success', (event) => {
    const detail = (event as CustomEvent<PayEventDetails['pay-success']>).detail;
    location.href = `/thanks?order=${detail.orderId ?? ''}`;
  });
}
export function shown(session: SessionView): string {
  return `${session.amount} ${session.currency} ${checkNumber('4242424242424242').valid}`;
}
