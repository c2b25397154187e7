import { expect, waitUntil } from '@open-wc/testing';
import { autofill, button, card, errorText, field, focused, message, mount, record, watchFetch } from '../test/harness.js';

// The card-number detector is a chunk of its own, loaded the first time a name or the e-mail address
// holds 14 digits. This file's page has not loaded it yet: keep this the only test here.
describe('<pay-form> before the card-number detector has loaded', () => {
  it('refuses a card number filled into a name and submitted at once, and pays nothing', async () => {
    const form = await mount({ customer: {} });
    const calls = watchFetch();
    const changes = record(form, 'pay-change');
    const submits = record(form, 'pay-submit');
    try {
      autofill(form, { ...card('4242424242424242'), fname: 'Olena 4111 1111 1111 1111', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' });
      expect(changes.find((change) => change.field === 'fname'), 'not judged yet').to.deep.include({ complete: false, valid: true, error: undefined });
      button(form).click();
      await waitUntil(() => errorText(form, 'fname') !== '', 'the name was never judged');
      expect(errorText(form, 'fname')).to.equal('This looks like a card number: enter it only in the card number field.');
      expect(field(form, 'fname').getAttribute('aria-invalid')).to.equal('true');
      expect(focused(form)).to.equal('fname');
      expect(message(form)).to.equal('Check the highlighted fields.');
      expect(changes.at(-1)).to.include({ field: 'fname', valid: false, error: 'card_number' });
      expect(submits).to.deep.equal([]);
      expect(calls.filter((call) => call.url.endsWith('/pay'))).to.deep.equal([]);
    } finally {
      calls.restore();
    }
  });
});
