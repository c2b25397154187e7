// The companion guide's Python receiver ("Told over HTTP"), run as a merchant copies it: its
// `verified` must take what the companion signs, and answer false — never raise, which a web
// framework answers 500 — for whatever else a stranger may send in the header.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { notificationHeaders } from '../test/notification-headers.js';

const guide = readFileSync(new URL('../../../docs/companion.md', import.meta.url), 'utf8');
const SECRET = 'whsec-python-0123456789abcdefABCDEF';
const BODY = '{"id":"payment:o-1:success","kind":"payment"}';

/** The guide's `def verified(…)`, as its Python block writes it. */
function guideVerified(): string {
  const block = guide.split('Python (any framework; Flask here):')[1]?.split('```')[1] ?? '';
  const verified = block.slice(block.indexOf('def verified('));
  return verified.slice(0, verified.indexOf('\n\n'));
}

/** What the guide's `verified` answers for each header over BODY: true, false, or the exception it raised. */
function verifiedAnswers(headers: readonly string[]): string[] {
  const program = [
    'import hashlib, hmac, json, sys, time',
    `SECRET = ${JSON.stringify(SECRET)}.encode()`,
    guideVerified(),
    'def answer(header):',
    '    try:',
    `        return str(verified(${JSON.stringify(BODY)}.encode(), header))`,
    '    except Exception as error:',
    '        return type(error).__name__',
    'print(json.dumps([answer(h) for h in json.loads(sys.stdin.read())]))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', program], { input: JSON.stringify(headers), encoding: 'utf8' })) as string[];
}

// python3 is on every machine this project runs on (the environment's list): not skipped without it.
describe('the guide’s Python receiver', () => {
  it('takes what the companion signs, any of several v1, and refuses the rest without raising', () => {
    const { taken, refused } = notificationHeaders(BODY, SECRET);
    expect(verifiedAnswers([...taken, ...refused])).toEqual([...taken.map(() => 'True'), ...refused.map(() => 'False')]);
  });
});
