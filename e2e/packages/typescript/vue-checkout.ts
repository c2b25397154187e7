/** A merchant's Vue 3 checkout's props, typed by `@payform/widget/vue`; compiled (never run) by types.test.ts. */
import type { GlobalComponents } from 'vue';
import type { PayButtonProps, PayFormProps } from '@payform/widget/vue';

export const formProps: PayFormProps = {
  session: 'cs_from_your_backend',
  mode: 'direct',
  pollInterval: 1_000,
  pollTimeout: 30_000,
  sessionWait: 5_000,
  onPaySuccess: (event) => console.log(event.detail.orderId),
};
export const buttonProps: PayButtonProps = { session: 'cs_from_your_backend', sessionWait: 5_000 };

// A component's optional prop, handed on before its data arrives: undefined, under exactOptionalPropertyTypes.
declare const sessionId: string | undefined;
declare const endpoint: string | undefined;
export const waiting: PayFormProps = { session: sessionId, endpoint };

// A template ref (`useTemplateRef('payEl')`) is what vue-tsc makes of the global component: the element, whose pay() a page's own button calls.
type FormRef = InstanceType<GlobalComponents['pay-form']>;
declare const form: FormRef;
export const paid: Promise<void> = form.pay();
// Its template takes Vue's own props and any element's beside the element's.
export const templateProps: FormRef['$props'] = { session: null, ref: 'payEl', key: 1, class: 'checkout' };
// @ts-expect-error -- the amount is the session's, set on the merchant's server
export const amount: FormRef['$props'] = { amount: 24_950 };
// @ts-expect-error -- no such mode: the hosted page all the same, and the console says so
export const redirect: PayFormProps = { mode: 'redirect' };
