import { describe, expect, it } from 'vitest';
import {
  AuthenticationError, DuplicateOrderError, GatewayError, GatewayUnavailableError, InvalidRequestError, NetworkTimeoutError,
  NotFoundError, OutcomeUnknownError, RateLimitError, UnexpectedResponseError, errorFromResponse, maskCardData,
  maskFreeText,
} from './errors.js';

describe('errorFromResponse', () => {
  it.each([
    [400, InvalidRequestError],
    [401, AuthenticationError],
    [403, AuthenticationError],
    [404, NotFoundError],
    [405, InvalidRequestError],
    [406, InvalidRequestError],
    [409, DuplicateOrderError],
    [422, InvalidRequestError],
    [429, RateLimitError],
    [500, GatewayUnavailableError],
    [502, GatewayUnavailableError],
    [503, GatewayUnavailableError],
  ])('maps HTTP %i to %s', (status, type) => {
    const error = errorFromResponse(status, { message: 'boom', args: { code: 'X-1' } });
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status, message: 'boom', code: 'X-1', args: { code: 'X-1' }, name: type.name });
  });

  it('recognises P-409 whatever the status', () => {
    const error = errorFromResponse(400, { message: 'order_id already used', args: { code: 'P-409' } });
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toBeInstanceOf(InvalidRequestError);
  });

  it('reads field violations and the legacy shape into fields', () => {
    expect(errorFromResponse(400, { message: 'Invalid', args: [{ field_name: 'amount', violation: 'must be positive' }] }).fields).toEqual([
      { field: 'amount', reason: 'must be positive' },
    ]);
    expect(errorFromResponse(400, { message: 'Invalid', args: { 'obj.currency': [{ msg: ['error.path.missing'] }] } }).fields).toEqual([
      { field: 'currency', reason: 'error.path.missing' },
    ]);
  });

  it('copes with bodies that are not the error envelope', () => {
    expect(errorFromResponse(502, undefined)).toMatchObject({ message: 'The gateway answered HTTP 502', args: undefined, fields: [] });
    expect(errorFromResponse(400, ['not', 'an', 'envelope']).message).toBe('The gateway answered HTTP 400');
    expect(errorFromResponse(400, { message: '' }).message).toBe('The gateway answered HTTP 400');
    expect(errorFromResponse(302, {})).toBeInstanceOf(UnexpectedResponseError);
  });

  it('carries Retry-After on rate limiting', () => {
    expect(errorFromResponse(429, { message: 'slow down' }, 1500)).toMatchObject({ retryAfterMs: 1500 });
  });

  it('masks a card number the gateway might echo, in the message, fields and args', () => {
    const error = errorFromResponse(400, {
      message: 'Card 4242 4242 4242 4242 is invalid',
      args: [{ field_name: 'cc_number', violation: 'bad value 4242424242424242' }],
    });
    expect(JSON.stringify([error.message, error.fields, error.args])).not.toMatch(/4242\s?4242\s?4242/);
    expect(error.message).toBe('Card [card number] is invalid');
  });

  it('masks a CVV the message quotes when only the args name the field, and keeps the code', () => {
    const error = errorFromResponse(400, { message: 'value 737 is not valid', args: [{ field_name: 'card_cvv', violation: 'invalid' }] });
    expect(error.message).toBe('value [cvv] is not valid');
    expect(error.fields).toEqual([{ field: 'card_cvv', reason: 'invalid' }]);
    const coded = errorFromResponse(400, { message: 'card_cvv 737 refused', args: { code: 'P-400' } });
    expect([coded.message, coded.code]).toEqual(['card_cvv [cvv] refused', 'P-400']);
  });

  it('keeps the ids of args beside one that names a CVV: each entry is masked by its own mention and the message’s', () => {
    const error = errorFromResponse(400, {
      message: 'Validation failed',
      args: [{ field_name: 'card_cvv', violation: 'value 737 is invalid' }, { field_name: 'order_id', violation: 'order 1234 already exists' }],
    });
    expect(error.fields).toEqual([{ field: 'card_cvv', reason: 'value [cvv] is invalid' }, { field: 'order_id', reason: 'order 1234 already exists' }]);
    const quoted = errorFromResponse(400, { message: 'CVV 737 refused for order 1234', args: [{ field_name: 'order_id', violation: 'order 1234 already exists' }] });
    expect([quoted.message, quoted.fields[0]?.reason]).toEqual(['CVV [cvv] refused for order [cvv]', 'order [cvv] already exists']);
  });
});

describe('maskCardData', () => {
  it('leaves short digit runs and non-strings alone', () => {
    expect(maskCardData('order 12345 code 2122')).toBe('order 12345 code 2122');
    expect(maskCardData(42)).toBe(42);
    expect(maskCardData(null)).toBeNull();
  });

  it('masks a CVV in text that speaks of one, whichever side the value is on', () => {
    expect(maskCardData('CVV 123 does not match (code 4153)')).toBe('CVV [cvv] does not match (code [cvv])');
    expect(maskCardData('value "1234" is not a valid card_cvv')).toBe('value "[cvv]" is not a valid card_cvv');
    expect(maskCardData('Security code: 987')).toBe('Security code: [cvv]');
    expect(maskCardData('declined, code 4153')).toBe('declined, code 4153');
  });

  it('masks card data written only in another script\'s digits, and CVVs however they are named', () => {
    const wide = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    expect(maskCardData(`Order ${wide('4242 4242 4242 4242')}`)).toBe('Order [card number]');
    expect(maskCardData(`cvv ${wide('987')}`)).toBe('cvv [cvv]');
    expect(maskCardData('Order ⁴²⁴²⁴²⁴²⁴²⁴²⁴²⁴², cvv ⁹⁸⁷, code ₁₂₃₄')).toBe('Order [card number], cvv [cvv], code [cvv]');
    for (const named of ['CV2 987', 'CVN: 987', 'C.V.V. 987', 'C.V.C 987', '\uff23\uff36\uff36 987', 'CV2=987', 'CVN2 987', 'CVD 987', 'CAV2 987', 'Card Code: 987', 'card_code=987', 'card verification value 987', 'код безпеки 987']) {
      expect(maskCardData(named), named).toMatch(/ ?\[cvv\]$/);
    }
    // Quoted whole, as a JSON key or a field the gateway names.
    expect(maskCardData({ cv2: '737', card_code: '1234' })).toEqual({ cv2: '[cvv]', card_code: '[cvv]' });
    expect(maskCardData({ field_name: 'cvn', violation: 'value 737 is not valid' })).toEqual({ field_name: 'cvn', violation: 'value [cvv] is not valid' });
    // Words that only look alike are not a mention: their numbers are kept.
    expect(maskCardData('CV20 order 1234')).toBe('CV20 order 1234');
    for (const ordinary of [
      'CID 1234 for order 5678', 'SMS verification code sent to 067 123 4567', 'bytes_rcvd 1234', 'svc_v2 1234', 'Vitamin C, vol 2 of 3, 500 mg', 'Сувенір 1234',
      // Words apart in mark-up stay apart; a social security number is no card's; "C v C" is a case's parties.
      'Public<br>school trip, order 5678', '<td>Basic</td><td>Scan</td> order 1234', '<li>Music</li><li>Scores</li> invoice 2026 room 1402',
      'social security number; order 4321', 'C v C [2019] EWHC 1234',
    ]) expect(maskCardData(ordinary), ordinary).toBe(ordinary);
    expect(maskCardData('Ship to Coventry CV2 4AA, invoice 5512 of 2026')).toBe('Ship to Coventry CV2 4AA, invoice 5512 of 2026');
  });

  it('masks card data anywhere in a structure — keys, numbers, siblings — and keeps it readable', () => {
    const masked = maskCardData({ args: [{ field_name: 'card_cvv', violation: 'bad value 123' }], echo: { '4242424242424242': 4242424242424242 }, cvv: 987 });
    expect(masked).toEqual({ args: [{ field_name: 'card_cvv', violation: 'bad value [cvv]' }], echo: { '[card number]': '[card number]' }, cvv: '[cvv]' });
  });
});

describe('maskFreeText', () => {
  it.each([
    ['cvv 123', 'cvv [cvv]'],
    ['CVV: 1234, thanks', 'CVV: [cvv], thanks'],
    ['the security code is 987', 'the security code is [cvv]'],
    ['CV2 123', 'CV2 [cvv]'],
    ['123 (CVV)', '[cvv] (CVV)'],
    ['737 is the CVV', '[cvv] is the CVV'],
    ['CVV, 737', 'CVV, [cvv]'],
    ['CVV:\n737', 'CVV:\n[cvv]'],
    ['security code on the back of the card is 737', 'security code on the back of the card is [cvv]'],
    ['the code is 737; CVV', 'the code is [cvv]; CVV'],
    ['CVV ok, ＣＶＶ 737', 'CVV ok, ＣＶＶ [cvv]'],
    ['card 4242 4242 4242 4242 exp 12/30 cvv 737', 'card [card number] exp 12/30 cvv [cvv]'],
    ['Courier: CSC Logistics, order 2026-11-29 room 1402', 'Courier: CSC Logistics, order 2026-11-29 room [cvv]'],
    ['cvv 737 at 29.11.2026 07:21:16.123', 'cvv [cvv] at 29.11.2026 07:21:16.123'],
    ['cvv 2026', 'cvv [cvv]'],
    // As a reader sees it: what hides inside the word, letters spaced, look-alikes, other words for it.
    ['C\u200bV\u200bV 864', 'C\u200bV\u200bV [cvv]'],
    ['C<b>V</b>V 864', 'C<b>V</b>V [cvv]'],
    ['c v v 864', 'c v v [cvv]'],
    ['\u0421VV 864', '\u0421VV [cvv]'],
    ['the security number is 864', 'the security number is [cvv]'],
    ['код безопасности 864', 'код безопасности [cvv]'],
    // Spelt a digit at a time, and named in other languages.
    ['cvv 7 3 7, room 1402', 'cvv [cvv], room [cvv]'],
    ['CVV:\u00a01 2 3 4', 'CVV:\u00a0[cvv]'],
    ['cvv 7-3-7', 'cvv [cvv]'],
    ['cvv 7  3  7', 'cvv [cvv]'],
    ['cvv 7\u202f3\u202f7', 'cvv [cvv]'],
    ['cvv 7\t3\t7', 'cvv [cvv]'],
    ['CVV 7.3.7', 'CVV [cvv]'],
    ['CVV 7/3/7/1', 'CVV [cvv]'],
    ['cvv 7_3_7', 'cvv [cvv]'],
    ['cvv 7\u20133\u20137, at 10.0.0.1', 'cvv [cvv], at 10.0.0.1'],
    ['Kartenprüfnummer: 737', 'Kartenprüfnummer: [cvv]'],
    ['Kartenpru\u0308fnummer 737', 'Kartenpru\u0308fnummer [cvv]'],
    ['Sicherheitscode 737', 'Sicherheitscode [cvv]'],
    ['cryptogramme visuel 737', 'cryptogramme visuel [cvv]'],
    ['Code de sécurité : 737', 'Code de sécurité : [cvv]'],
    ['Kod zabezpieczający 737', 'Kod zabezpieczający [cvv]'],
    ['código de seguridad 737', 'código de seguridad [cvv]'],
    ['codigo de segurança 737', 'codigo de segurança [cvv]'],
    ['codice di sicurezza 737', 'codice di sicurezza [cvv]'],
    // Its digits escaped as a URL escapes them, once or twice, or spaces between them so.
    ['cvv %37%33%37', 'cvv [cvv]'],
    ['?card_cvv=%2537%2533%2537&x=1', '?card_cvv=[cvv]&x=1'],
    ['cvv 7%203%207', 'cvv [cvv]'],
    // The widget's languages: more of their names for it.
    ['kod bezpieczeństwa 737', 'kod bezpieczeństwa [cvv]'],
    ['Kartenpruefnummer 737', 'Kartenpruefnummer [cvv]'],
    ['CVV2 737', 'CVV2 [cvv]'],
  ])('masks every 3–4-digit run of a text naming a CVV but those of its dates and times: %s', (text, masked) => {
    expect(maskFreeText(text)).toBe(masked);
  });

  it.each([
    ['4242424242424242|12|2030|987', '[card number]|12|[cvv]|[cvv]'],
    ['Card 4242 4242 4242 4242 12/30 987', 'Card [card number] 12/30 [cvv]'],
    ['4242424242424242 1230 987', '[card number] [cvv] [cvv]'],
    ['Card 4242 4242 4242 4242, exp 12/30, 987', 'Card [card number], exp 12/30, [cvv]'],
    ['4242 4242 4242 4242 valid thru 12/30 987 thanks, room 1402', '[card number] valid thru 12/30 [cvv] thanks, room 1402'],
    ['КВВ 987', 'КВВ [cvv]'],
    ['4242424242424242 до 12/30 987', '[card number] до 12/30 [cvv]'],
    ['4242424242424242 термін 12/30 987', '[card number] термін 12/30 [cvv]'],
    ['4242424242424242 12/30 code 987', '[card number] 12/30 code [cvv]'],
    ['Amex 378282246310005 exp 12/30 CID 1234', 'Amex [card number] exp 12/30 CID [cvv]'],
    ['4242424242424242 2026-11-29 12:30, 987', '[card number] 2026-11-29 12:30, [cvv]'],
  ])('masks a short run written after a card number as a card dump does, unnamed: %s', (text, masked) => {
    expect(maskFreeText(text)).toBe(masked);
  });

  it('masks a card dump echoed by the gateway as in free text: the code after the number, unnamed, its dates kept', () => {
    expect(maskCardData({ description: '4242424242424242|12|30|987', order_id: 'order 1234' })).toEqual({ description: '[card number]|12|30|[cvv]', order_id: 'order 1234' });
    expect(maskCardData({ d: '4242424242424242 2026-11-29 12:30' })).toEqual({ d: '[card number] 2026-11-29 12:30' });
  });

  it('keeps a text that names no CVV as written, card numbers aside', () => {
    expect(maskFreeText('Invoice 4711, room 1402, 2026-11-29')).toBe('Invoice 4711, room 1402, 2026-11-29');
    expect(maskFreeText('Aisle 7 3 7, gate 1 2 3 4 5')).toBe('Aisle 7 3 7, gate 1 2 3 4 5');
    expect(maskFreeText('Order 4242 4242 4242 4242, room 1402')).toBe('Order [card number], room 1402');
    // A customer's id is CID too: read as a code only after a card number.
    expect(maskFreeText('Call back CID 1234, ticket 5678')).toBe('Call back CID 1234, ticket 5678');
    // `code` with digits is a status's in English; `код`/`kod` alone is any code in Ukrainian and
    // Polish (`код 044`: Kyiv's telephone code), and with a longer number or another word no card's.
    for (const kept of ['Declined, code 4153', 'Замовлення 2024, код 044, сума 1500', 'Zamówienie 2024, kod 1234 rabat', 'kod: 7373', 'код ЄДРПОУ 12345678', 'kod pocztowy 00-950', 'Код товару 1234567', 'Kodak 1234', 'escaped %41%42%43 1402']) {
      expect(maskFreeText(kept), kept).toBe(kept);
    }
  });
});

describe('OutcomeUnknownError', () => {
  it('tells the caller to read the order\'s state and keeps the cause', () => {
    const cause = new NetworkTimeoutError(5000);
    const error = new OutcomeUnknownError('capture', 'order-1', cause);
    expect(error.message).toBe(
      "The outcome of capture for order order-1 is unknown (The gateway did not answer within 5000 ms): read the order's state before retrying.",
    );
    expect(error).toMatchObject({ operation: 'capture', orderId: 'order-1', cause, name: 'OutcomeUnknownError' });
    expect(new OutcomeUnknownError('refund', 'o', new GatewayUnavailableError('down', { status: 503 })).status).toBe(503);
  });
});
