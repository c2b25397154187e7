// A microfinance or iGaming merchant's payments, against a sandbox project of that sector: what
// the gateway requires beyond other merchants' (interface, endpoint 1, rules 3–4) is asked for
// as a session opens, and a companion not told the sector says which setting it lacks.
import { describe, expect, it } from 'vitest';
import type { MerchantSector } from '@payform/gateway';
import { card, CUSTOMER, FINGERPRINT } from '../test/cards.js';
import { eventually, payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const openStack = stacksPerTest();
const CONTACT = { email: CUSTOMER.email, phone: CUSTOMER.phone };

/** A strict sandbox project of `project`'s sector, and a companion told `told` (null: not told). */
const open = (project: MerchantSector, told: MerchantSector | null = project) =>
  openStack({ sandbox: { projects: [{ strict: true, sector: project }] }, ...(told ? { gateway: { merchantSector: told } } : {}) });

const newSession = (stack: Stack, status: number, body: Record<string, unknown>) =>
  stack.json('POST', '/api/checkout/sessions', status, { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Loan repayment', ...body } });

const warnings = (stack: Stack) => stack.logs.filter((line) => line.includes('"level":"warn"')).map((line) => JSON.parse(line).msg as string);

describe('a microfinance merchant', () => {
  it('opens a session only with the customer’s date of birth or tax id, and the tax id above 30 000 UAH; a verification needs neither', async () => {
    const stack = await open('microfinance');
    const refused = await newSession(stack, 400, { customer: CONTACT });
    expect(refused.error.fields).toEqual({
      'customer.birthday': 'or customer.tax_id is required for a microfinance merchant (the gateway client’s merchantSector, PAYFORM_MERCHANT_SECTOR): the gateway refuses a payment without the customer’s date of birth or tax id',
    });
    const large = await newSession(stack, 400, { amount: 3_000_001, customer: { birthday: '1990-04-01' } });
    expect(large.error.fields).toEqual({ 'customer.tax_id': expect.stringMatching(/^is required above 3000000 \(30000\.00 UAH\) for a microfinance merchant/) });
    // At the threshold, and in another currency, a date of birth is enough.
    await newSession(stack, 201, { amount: 3_000_000, customer: { birthday: '1990-04-01' } });
    await newSession(stack, 201, { amount: 3_000_001, currency: 'EUR', customer: { birthday: '1990-04-01' } });
    await newSession(stack, 201, { method: 'lookup', customer_id: 'borrower-1' });

    // Opened with them, the payment the gateway would have refused is taken.
    const session = await newSession(stack, 201, { amount: 3_500_000, customer: { tax_id: '3012345678' } });
    expect(await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody() })).toMatchObject({ status: 'success' });
    expect(warnings(stack)).toEqual([]);
  });

  it('charges a saved card only with the date of birth or tax id, given now or at a payment before', async () => {
    const stack = await open('microfinance');
    const verification = await newSession(stack, 201, { method: 'lookup', customer_id: 'borrower-2' });
    await stack.json('POST', `/api/checkout/sessions/${verification.id}/pay`, 200, { body: { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT } });
    const [saved] = await eventually(async () => {
      const cards: Json[] = (await stack.json('GET', '/api/customers/borrower-2/cards', 200, { admin: true })).cards;
      expect(cards).toHaveLength(1);
      return cards;
    });
    const charge = (status: number, body: Record<string, unknown> = {}) =>
      stack.json('POST', `/api/customers/borrower-2/cards/${saved!.id}/charges`, status, { admin: true, body: { amount: 5000, currency: 'UAH', description: 'Instalment', ...body } });
    expect((await charge(400)).error.fields).toEqual({ 'customer.birthday': expect.stringContaining('PAYFORM_MERCHANT_SECTOR') });
    expect(await charge(201, { customer: { birthday: '1990-04-01' } })).toMatchObject({ status: 'success' });
  });

  it('asks the payer for their names before the gateway’s page, as it asks for the contact details', async () => {
    const stack = await open('microfinance');
    const session = await newSession(stack, 201, { modes: ['hosted'], customer: { birthday: '1990-04-01' } });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).customer_fields).toEqual(['fname', 'lname', 'email', 'phone']);
    const hosted = (status: number, customer: Record<string, string>) => stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, status, { body: { customer } });
    expect((await hosted(422, CONTACT)).error).toMatchObject({ code: 'customer_required', fields: { 'customer.fname': 'is required', 'customer.lname': 'is required' } });
    expect((await hosted(200, CUSTOMER)).redirect_url).toMatch(/\/form$/);
  });
});

describe('an iGaming merchant', () => {
  it('opens sessions without a date of birth, and asks for the names before the gateway’s page', async () => {
    const stack = await open('igaming');
    const session = await newSession(stack, 201, { modes: ['hosted'] });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).customer_fields).toEqual(['fname', 'lname', 'email', 'phone']);
    expect((await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: { customer: CUSTOMER } })).redirect_url).toMatch(/\/form$/);
  });
});

describe('a companion not told its project’s sector', () => {
  it('closes a microfinance session the gateway refuses for the date of birth, and names the setting to the operator', async () => {
    const stack = await open('microfinance', null);
    const session = await newSession(stack, 201, {});
    const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 422, { body: payBody() });
    // Not the customer's to correct (the widget asks for no date of birth): the session's terms.
    expect(refused.error.code).toBe('session_refused');
    expect(refused.error.fields).toHaveProperty(['customer.birthday']);
    const [line, ...more] = warnings(stack).filter((text) => text.includes('not what the customer typed'));
    expect(more).toEqual([]);
    expect(line).toContain('customer.birthday');
    expect(line).toContain('set PAYFORM_MERCHANT_SECTOR (the gateway client’s merchantSector)');
  });

  it('says the same when an iGaming project’s page wants the names the widget did not ask for', async () => {
    const stack = await open('igaming', null);
    const session = await newSession(stack, 201, { modes: ['hosted'] });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).customer_fields).toEqual(['email', 'phone']);
    const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 422, { body: { customer: CONTACT } });
    expect(refused.error).toMatchObject({ code: 'session_refused', fields: { 'customer.fname': expect.any(String), 'customer.lname': expect.any(String) } });
    expect(warnings(stack).filter((text) => text.includes('PAYFORM_MERCHANT_SECTOR'))).toHaveLength(1);
  });
});
