// The companion guide's Ruby receiver ("Told over HTTP"), run as a merchant copies it: its
// `payform_verified?` must take what the companion signs, over the body as a Rack server hands it
// (bytes) or as text, and answer false — never raise, which a Rack app answers 500 — for whatever
// else a stranger may send in the header, as a server hands it (bytes, or text tagged UTF-8 that
// is not).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { notificationHeaders } from '../test/notification-headers.js';

const guide = readFileSync(new URL('../../../docs/companion.md', import.meta.url), 'utf8');
const SECRET = 'whsec-ruby-0123456789abcdefABCDEF0123';
// A change names customers in their own letters: the HMAC is over its UTF-8 bytes.
const BODY = '{"id":"payment:o-1:success","kind":"payment","payment":{"customer":{"fname":"Олена"}}}';

/** The guide's `def payform_verified?(…)`, as its Ruby block writes it. */
function guideVerified(): string {
  const block = guide.split('Ruby (any Rack framework: Rails, Sinatra, Roda):')[1]?.split('```')[1] ?? '';
  const verified = block.slice(block.indexOf('def payform_verified?('));
  return verified.slice(0, verified.indexOf('\nend\n') + '\nend\n'.length);
}

/**
 * What the guide's method answers for each header, given as bytes and as text tagged UTF-8 (a
 * header's invalid bytes so tagged, as some servers and frameworks hand them), over BODY as bytes
 * and as text: true, false, or the exception it raised.
 */
function verifiedAnswers(headers: readonly string[]): string[][] {
  const program = [
    "require 'json'",
    "require 'openssl'",
    `PAYFORM_NOTIFY_SECRET = ${JSON.stringify(SECRET)}`,
    guideVerified(),
    'def answer(body, header)',
    '  payform_verified?(body, header).to_s',
    'rescue StandardError => error',
    '  error.class.name',
    'end',
    `body = ${JSON.stringify(BODY)}`,
    // Each header arrives as Latin-1 code points standing for its bytes, as JSON can carry them.
    'headers = JSON.parse($stdin.read).map { |text| text.encode(Encoding::ISO_8859_1).b }',
    'puts JSON.generate(headers.map { |h| [answer(body.b, h), answer(body, h.dup.force_encoding(Encoding::UTF_8)), answer(body.b, nil)] })',
  ].join('\n');
  let output: string;
  try {
    output = execFileSync('ruby', ['-e', program], { input: JSON.stringify(headers), encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ruby is not installed: .ci/ensure-tools installs it (apt-get install ruby)', { cause: error });
    throw error;
  }
  return JSON.parse(output) as string[][];
}

// Ruby is provisioned by .ci/ensure-tools wherever the suites run: not skipped without it.
describe('the guide’s Ruby receiver', () => {
  it('takes what the companion signs, any of several v1, and refuses the rest without raising', () => {
    const { taken, refused, t, v1 } = notificationHeaders(BODY, SECRET);
    // [body and header as bytes, both as UTF-8 text, no header at all]: each said apart, so a
    // receiver that refuses the text a framework may hand it fails here too.
    const strangers = [
      ...refused,
      // Ruby's own ways to raise: a v1 of another length (fixed_length_secure_compare), bytes that
      // are no UTF-8 in the v1 or the t (String#split on text so tagged), an empty t.
      `t=${t},v1=\u00ff`,
      `t=${t},v1=abc`,
      `t=${t}\u00ff,v1=${v1}`,
      `t=,v1=${v1}`,
    ];
    expect(verifiedAnswers([...taken, ...strangers])).toEqual([...taken.map(() => ['true', 'true', 'false']), ...strangers.map(() => ['false', 'false', 'false'])]);
  });
});
