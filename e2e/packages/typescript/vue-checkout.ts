/** A merchant's Vue 3 checkout's props, typed by `@payform/widget/vue`; compiled (never run) by types.test.ts. */
import type { PayButtonProps, PayFormProps } from '@payform/widget/vue';

export const formProps: PayFormProps = {
  session: 'cs_from_your_backend',
  pollInterval: 1_000,
  pollTimeout: 30_000,
  sessionWait: 5_000,
  onPaySuccess: (event) => console.log(event.detail.orderId),
};
export const buttonProps: PayButtonProps = { session: 'cs_from_your_backend', sessionWait: 5_000 };
