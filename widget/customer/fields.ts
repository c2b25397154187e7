import { fail, VALID, type Check } from '@payform/card/fields';
import type * as Checks from './checks.js';

/**
 * The customer fields' checks as the form runs them. The checks themselves (checks.ts) are a
 * chunk: only sessions that ask for customer fields need them, and those fetch it as the form
 * shows them (`loadCustomerChecks`). A value typed before it has arrived gets a pending check,
 * judged again once it has, as a name holding 14 digits waits for the card-number detector.
 */

type Checker = 'checkName' | 'checkEmail' | 'checkPhone';

/** The chunk's checks once it has loaded; none when it could not. */
let checks: Partial<Pick<typeof Checks, Checker>> | undefined;
let loading: Promise<unknown> | undefined;

// Should the checks not load, a value is only required: the companion's own checks judge it on payment.
const required = (value: string): Check => (value.trim() ? VALID : fail('empty', true));

/**
 * Fetches the checks, once, as the form shows the fields (before any is checked); `failed` hears
 * why they did not load, for the console to name the missing chunk.
 */
export const loadCustomerChecks = (failed: (error: unknown) => undefined): Promise<unknown> =>
  (loading ??= import('./checks.js').then(
    (module) => (checks = module),
    // None: `failed` says so and gives nothing.
    (error) => (checks = failed(error) ?? {}),
  ));

/** The field's check: the chunk's once it has loaded (else `required`), pending until then. */
export const customerCheck =
  (name: Checker) =>
  (value: string): Check =>
    checks ? (checks[name] ?? required)(value) : { valid: false, potentiallyValid: true, pending: loading };
