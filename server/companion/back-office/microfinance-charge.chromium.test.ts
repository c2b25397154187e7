// A microfinance merchant's back office charging a card saved by a verification, in Chromium,
// against a strict sandbox project of that sector: the gateway asks every payment for the
// borrower's date of birth or tax id, which no payment of that card gave, so the Charge dialog
// asks for them, says beside each which one is missing, and charges once they are typed.
import { expect as expectPage } from '@playwright/test';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../../../e2e/chromium.js';
import { BackOffice } from '../../../e2e/pages/back-office.js';
import { card, CUSTOMER, FINGERPRINT } from '../test/cards.js';
import { ADMIN_TOKEN, eventually, stacksPerTest } from '../test/stack.js';
import type { Json } from '../test/stack.js';

const open = stacksPerTest();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

it('asks for the borrower’s date of birth or tax id, says which is missing beside it, and charges with them', async () => {
  const stack = await open({
    served: true,
    sandbox: { projects: [{ strict: true, sector: 'microfinance' }] },
    gateway: { merchantSector: 'microfinance' },
    companion: { backOffice: { path: '/admin' } },
  });
  const verification = await stack.json('POST', '/api/checkout/sessions', 201, {
    admin: true,
    body: { amount: 100, currency: 'UAH', description: 'Card check', method: 'lookup', customer_id: 'borrower-7' },
  });
  await stack.json('POST', `/api/checkout/sessions/${verification.id}/pay`, 200, { body: { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT } });
  await eventually(async () => expect((await stack.json('GET', '/api/customers/borrower-7/cards', 200, { admin: true })).cards).toHaveLength(1));

  const page = await browser.newPage({ baseURL: stack.companionUrl });
  const backOffice = new BackOffice(page, ADMIN_TOKEN);
  await backOffice.open(verification.order_id);
  await backOffice.detail.getByRole('button', { name: 'Charge saved card' }).click();
  const { dialog } = backOffice;
  const birthday = dialog.getByLabel('Date of birth');
  const taxId = dialog.getByLabel('Tax id');
  await expectPage(birthday).toHaveAccessibleDescription(/needs the customer’s date of birth or tax id/);

  // Neither given: the companion's refusal is said beside the date of birth, in the page's words.
  await dialog.getByLabel(/^Amount/).fill('50');
  await dialog.getByRole('button', { name: 'Charge UAH 50.00' }).click();
  await expectPage(birthday).toHaveAttribute('aria-invalid', 'true');
  await expectPage(dialog.locator('#charge-birthday-error')).toHaveText('Give the date of birth or the tax id: the card’s last payments gave neither.');
  await expectPage(dialog.getByRole('alert')).toHaveCount(0);

  // Above 30 000 UAH a date of birth is not enough: the tax id is asked for beside its field.
  await birthday.fill('1990-04-01');
  await dialog.getByLabel(/^Amount/).fill('30000.01');
  await dialog.getByRole('button', { name: 'Charge UAH 30,000.01' }).click();
  await expectPage(taxId).toHaveAttribute('aria-invalid', 'true');
  await expectPage(dialog.locator('#charge-tax-id-error')).toHaveText('Give the tax id: the gateway needs it for a charge this large.');

  await taxId.fill('3012345678');
  await dialog.getByRole('button', { name: 'Charge UAH 30,000.01' }).click();
  await expectPage(dialog).toBeHidden();
  const charged = await eventually(async () => {
    const { orders }: Json = await stack.json('GET', '/api/orders?customer_id=borrower-7', 200, { admin: true });
    const paid = orders.find((order: Json) => order.method === 'purchase');
    expect(paid).toMatchObject({ status: 'success', amount: 3_000_001 });
    return paid;
  });
  expect((await stack.json('GET', `/api/orders/${charged.order_id}`, 200, { admin: true })).order.customer).toMatchObject({ birthday: '1990-04-01', tax_id: '3012345678' });
  await page.close();
});
