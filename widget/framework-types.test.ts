/**
 * The React and Vue entries' types, as a strict merchant app uses them: checked by `tsc` (the
 * `it` bodies only name types). A page's state holds no session until its server answers, and the
 * element waits for one (docs/widget.md, `sessionWait`), so `null` and `undefined` must type.
 */
import type { ComponentProps, Ref } from 'react';
import { expectTypeOf, it } from 'vitest';
import type { PayButton as PayButtonElement, PayForm as PayFormElement } from './index.js';
import type { PayButton, PayForm } from './react.js';
import type { PayButtonProps, PayFormProps } from './vue.js';

type FormProps = ComponentProps<typeof PayForm>;
type ButtonProps = ComponentProps<typeof PayButton>;

it('takes a session still null or undefined in React and Vue', () => {
  expectTypeOf<string | null | undefined>().toExtend<FormProps['session']>();
  expectTypeOf<string | null | undefined>().toExtend<ButtonProps['session']>();
  expectTypeOf<string | null | undefined>().toExtend<PayFormProps['session']>();
  expectTypeOf<string | null | undefined>().toExtend<PayButtonProps['session']>();
});

it('keeps the other props, the typed events and the element ref in React', () => {
  expectTypeOf<FormProps['session']>().not.toExtend<number | undefined>();
  expectTypeOf<FormProps['endpoint']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<Parameters<NonNullable<FormProps['onPaySuccess']>>[0]['detail']>().toEqualTypeOf<{ orderId: string; paymentId?: string }>();
  expectTypeOf<Ref<PayFormElement>>().toExtend<FormProps['ref']>();
  expectTypeOf<Ref<PayButtonElement>>().toExtend<ButtonProps['ref']>();
  expectTypeOf<ButtonProps>().not.toHaveProperty('onPayChange');
});
