/** Wire amounts that passed their schema, in minor units — or a 400 when they cannot be held exactly. */
import { fromWireAmount } from '@payform/gateway/wire';
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
