/**
 * The answer of every field check: `valid` when the value can be submitted as it is,
 * `potentiallyValid` when it is valid or more typing could still make it so, and `code`, why not.
 * `pending` while what judges the value is still loading: check again once it settles.
 */
export interface Check {
  valid: boolean;
  potentiallyValid: boolean;
  code?: CheckCode;
  pending?: Promise<unknown>;
}

/** Why a value is not valid. */
export type CheckCode = 'empty' | 'incomplete' | 'invalid' | 'unsupported' | 'expired' | 'too_far' | 'card_number';

export const VALID: Check = { valid: true, potentiallyValid: true };

export const fail = (code: CheckCode, potentiallyValid: boolean): Check => ({ valid: false, potentiallyValid, code });

/** The digits of a value, everything else (spaces, dashes, NBSPs, slashes) dropped. */
export const digitsOf = (value: string): string => value.replace(/\D/g, '');
