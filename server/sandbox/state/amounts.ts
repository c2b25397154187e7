/**
 * Amounts in minor units: read off the wire (a 400 when one cannot be held exactly), or checked
 * where the sandbox's own surfaces take them.
 */
import { formatMinorUnits } from '@payform/gateway';
import { fromWireAmount, wireRangeRefusal } from '@payform/gateway/wire';
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
  if (sign === 'positive' && typeof minor === 'number' && minor <= 0) return 'must be greater than 0';
  return wireRangeRefusal(minor, currency);
}

/**
 * The refusal of `amount` where the sandbox 0.2 took major units (`amount: 12.5`): it names the
 * field that replaced it. A value with a fraction was major units, and what to send is said; a
 * whole one may have been meant as minor units already, so both readings are given.
 */
export function majorUnitsRefusal(renamed: string, value: unknown, currency: string): string {
  const refusal = `is not taken here (in the sandbox 0.2 it was major units): send ${renamed}, in integer minor units`;
  let minor: number;
  try {
    if (typeof value !== 'number' || !/^[A-Z]{3}$/.test(currency)) return refusal;
    minor = fromWireAmount(value, currency);
  } catch {
    // Not an amount of the currency, or no currency known: the field's new name is news enough.
    return refusal;
  }
  if (!Number.isInteger(value)) return `${refusal}: ${renamed}: ${minor} for ${formatMinorUnits(minor, currency)}`;
  return `${refusal}: ${renamed}: ${value} for ${formatMinorUnits(value, currency)}, or ${minor} for ${formatMinorUnits(minor, currency)}`;
}
