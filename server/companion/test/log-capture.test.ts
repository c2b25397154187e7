// The log-capture check itself: it must find what it looks for.
import { describe, expect, it } from 'vitest';
import { createLogger, memorySink } from '../log/logger.js';
import { TEST_CVV, card, cardNumber } from './cards.js';
import { scanLogCapture } from './log-capture.js';

describe('scanLogCapture', () => {
  it('finds a card number in any spelling, a CVV, and an unredacted card field', () => {
    const amex = cardNumber('success', 'amex');
    const lines = [
      `{"msg":"paid ${cardNumber('success')}"}`,
      `{"msg":"typed 4000 0000 0000 0002"}`,
      `{"msg":"${amex.slice(0, 4)} ${amex.slice(4, 10)} ${amex.slice(10)}"}`,
      `{"msg":"ok","code":"${TEST_CVV}"}`,
      `{"cvv":1234}`,
      `{"msg":"ok","code":${TEST_CVV}}`,
      `{"msg":"clean","order_id":"o-1","cvv":"[redacted]"}`,
      // A request line whose duration happens to read like a test CVV.
      `{"msg":"request","method":"POST","status":200,"ms":${TEST_CVV}}`,
    ];
    expect(scanLogCapture(lines.join('\n')).map((finding) => finding.line)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('finds a test card number whatever separates its digits, in any digits, and names it', () => {
    const visa = cardNumber('success');
    const groups = visa.match(/.{4}/g)!;
    const fullWidth = visa.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    const written = [
      groups.join('  '), groups.join('\u00a0'), groups.join('\u2009'), groups.join('.'), groups.join('/'),
      groups.join('_'), groups.join(','), groups.join(' - '), fullWidth, groups.join('\u200b'),
      groups.join('|'), groups.join(':'), groups.join('      '), `${groups[0]}<b>${groups[1]}</b>${groups[2]}<i>${groups[3]}</i>`,
      [...visa].map((digit) => `${digit}\ufe0f\u20e3`).join(''),
    ];
    const lines = [...written.map((text) => JSON.stringify({ msg: `typed ${text}` })), JSON.stringify({ name: groups.join('\t') })];
    const findings = scanLogCapture(lines.join('\n'));
    expect(findings.map((finding) => finding.line)).toEqual(lines.map((_, index) => index + 1));
    expect(new Set(findings.map((finding) => finding.what))).toEqual(new Set([`test card ${visa.slice(0, 6)}…`]));
    // Numbers that only share digits with a test card are not one.
    expect(scanLogCapture(`{"order":"${visa.slice(0, 12)}","at":"2026-11-22 10:00:00","amount":4242}`)).toEqual([]);
  });

  it('finds nothing in what the logger writes for a card payment', () => {
    const memory = memorySink();
    const logger = createLogger({ sink: memory.sink, level: 'debug' });
    const body = { card: card(), fingerprint: {} };
    logger.info(`pay ${body.card.number}`, { body, error: new Error(`card ${body.card.number.replaceAll(' ', '')} declined`) });
    expect(scanLogCapture(memory.lines.join('\n'))).toEqual([]);
  });
});
