// The at-rest scan reads a stored file's text as it was written: a test card number with
// no-break spaces or full-width digits in a ledger or a log is found, as plain digits are.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardNumber } from '../../../server/companion/test/cards.js';
import { scanFile } from './at-rest.js';

describe('scanFile', () => {
  it('finds a test card number written with other separators or digits among binary bytes', () => {
    const visa = cardNumber('success');
    const dir = mkdtempSync(join(tmpdir(), 'payform-at-rest-test-'));
    const spellings = [visa.match(/.{4}/g)!.join('\u00a0'), visa.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)))];
    const files = spellings.map((spelling, index) => {
      const path = join(dir, `ledger-${index}.db`);
      writeFileSync(path, Buffer.concat([Buffer.from([0, 0xe2, 0xff, 13]), Buffer.from(`{"fname":"${spelling}"}`, 'utf8'), Buffer.from([0xc3, 0])]));
      return path;
    });
    try {
      for (const path of files) expect(scanFile(path), path).toEqual([{ where: path, what: `test card ${visa.slice(0, 6)}…` }]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
