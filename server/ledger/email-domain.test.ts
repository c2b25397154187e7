// An internationalised e-mail domain kept as written, and found by either spelling.
import { describe, expect, it } from 'vitest';
import { emailAsWritten, emailSpellings } from './email-domain.js';
import { openLedger } from './ledger.js';
import { paidOrder } from './testing/contract.js';

describe('an e-mail address’s domain', () => {
  it('is written as people write it where a browser gave IDNA’s ASCII, label by label, its Unicode in lower case, and left as it is otherwise', () => {
    expect(emailAsWritten('juergen@xn--mller-kva.de')).toBe('juergen@müller.de');
    expect(emailAsWritten('olena@MÜLLER.de')).toBe('olena@müller.de');
    expect(emailAsWritten('Olena@Example.COM')).toBe('Olena@Example.COM');
    expect(emailAsWritten('taro@xn--r8jz45g.xn--zckzah')).toBe('taro@例え.テスト');
    // Only IDNA's labels are read: what else the domain holds stays as sent (a percent sign is no escape here).
    expect(emailAsWritten('a@xn--mller-kva.%64e')).toBe('a@müller.%64e');
  });

  it('is searched for in its spellings, each once as lower() reads it: as given, as written, and in ASCII', () => {
    expect(emailSpellings('juergen@müller.de')).toEqual(['juergen@müller.de', 'juergen@xn--mller-kva.de']);
    expect(emailSpellings('JUERGEN@MÜLLER.DE')).toEqual(['JUERGEN@MÜLLER.DE', 'JUERGEN@müller.DE', 'JUERGEN@xn--mller-kva.DE']);
    expect(emailSpellings('Olena@Example.COM')).toEqual(['Olena@Example.COM']);
    expect(emailSpellings('a@xn--mller-kva.%64e')).toEqual(['a@xn--mller-kva.%64e', 'a@müller.%64e']);
  });

  it('finds an order stored under the browser’s spelling, as an instance of before kept it, by the one people write', async () => {
    const ledger = await openLedger(':memory:');
    try {
      const stored = await paidOrder(ledger, { customer: { email: 'juergen@xn--mller-kva.de' } });
      // A Unicode domain typed in capitals, which SQLite's lower() does not fold, is kept lowered: found by the lower case too.
      const capitals = await paidOrder(ledger, { customer: { email: emailAsWritten('olena@MÜLLER.de') } });
      expect((await ledger.listOrders({ email: 'olena@müller.de' })).orders.map((order) => order.orderId)).toEqual([capitals.orderId]);
      for (const email of ['juergen@müller.de', 'Juergen@XN--MLLER-KVA.DE']) {
        expect((await ledger.listOrders({ email })).orders.map((order) => order.orderId), email).toEqual([stored.orderId]);
      }
    } finally {
      await ledger.close();
    }
  });
});
