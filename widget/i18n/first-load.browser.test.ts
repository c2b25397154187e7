import { expect, fixture, oneEvent } from '@open-wc/testing';
import type { PayForm } from '../pay-form/pay-form.js';
import { message, watchFetch } from '../test/harness.js';

// Catalogs are chunks a page loads the first time it needs them (English's specific error messages
// too). This file's page has loaded none yet, and each test needs another one: keep it so.
describe('<pay-form> whose session fails to load before its catalog has', () => {
  async function failToLoad(lang: string): Promise<{ form: PayForm; detail: { code: string; message: string } }> {
    const calls = watchFetch((call) => (call.url.includes('/api/checkout/') ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
    try {
      const form = document.createElement('pay-form');
      form.session = 'cs_first_load';
      form.setAttribute('lang', lang);
      const error = oneEvent(form, 'pay-error');
      await fixture(form);
      const { detail } = await error;
      await form.updateComplete;
      return { form, detail };
    } finally {
      calls.restore();
    }
  }

  it("says so in the page's language", async () => {
    const { form, detail } = await failToLoad('uk');
    expect(detail).to.deep.equal({ code: 'network', message: 'Не вдалося зв’язатися з платіжним сервісом. Пробуємо ще раз…' });
    expect(message(form)).to.equal(detail.message);
  });

  it('says it in English with the specific message', async () => {
    const { form, detail } = await failToLoad('en');
    expect(detail).to.deep.equal({ code: 'network', message: 'Could not reach the payment service. Trying again…' });
    expect(message(form)).to.equal(detail.message);
  });
});
