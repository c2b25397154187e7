/**
 * Amounts in minor units: read off the wire (a 400 when one cannot be held exactly), or checked
 * where the sandbox's own surfaces take them.
 */
import { fromWireAmount, maxWireMinorUnits, wireAmountRefusal } from '@payform/gateway/wire';
import type { WireAmount } from '@payform/gateway/wire';
import { Refusal } from './refusal.js';

/**
 * The sandbox's own count of minor units. It is the gateway: it adds, splits and takes fees
 * freely, so it uses plain integers rather than the client's checked `MinorUnits`.
 */
export type MinorUnits = number;

export function minorUnits(value: WireAmount, currency: string, field: string): MinorUnits {
  try {
    return fromWireAmount(value, currency);
  } catch {
    // The schema allowed two decimals; what fails here is too fine for the currency or too large.
    throw Refusal.invalidField(field, `cannot be an amount in ${currency}: too large or too precise`);
  }
}

/**
 * Why an amount of the sandbox's own surfaces (the control plane, the projects file) cannot be
 * `minor` units of `currency`, or undefined: whole minor units, as everywhere in payform, that the
 * wire can carry. `sign` says what the field allows.
 */
export function minorAmountRefusal(minor: unknown, currency: string, sign: 'positive' | 'any'): string | undefined {
  const refusal = wireAmountRefusal(minor, currency);
  if (refusal) return refusal;
  const amount = minor as number;
  if (sign === 'positive' && amount <= 0) return 'must be greater than 0';
  const max = maxWireMinorUnits(currency);
  if (Math.abs(amount) > max) return `must be at most ${max} minor units of ${currency}`;
  return undefined;
}

/**
 * The refusal of an amount in major units where the sandbox 0.2 took one (`amount: 12.5`): it names
 * the field that replaced it and, when the value reads as an amount, what to write there.
 */
export function majorUnitsRefusal(renamed: string, value: unknown, currency: string): string {
  let example = '';
  try {
    if (typeof value === 'number') example = `: ${value} ${currency} is ${renamed}: ${fromWireAmount(value, currency)}`;
  } catch {
    // Not an amount of the currency: the field's new name is news enough.
  }
  return `is major units, which the sandbox no longer takes here: send ${renamed}, in integer minor units${example}`;
}
