/**
 * The check `.ci/test` runs over PAYFORM_LOG_FILE after the whole Vitest run: every line any
 * companion wrote during the suites, searched for the test card numbers (as digits, spaced
 * and dashed) and the tests' CVVs, and for a CVV-like key whose value is not redacted.
 */
import { TEST_CARDS } from '@payform/gateway/testing';
import { TEST_CVVS } from './cards.js';

export interface CaptureFinding {
  readonly line: number;
  readonly what: string;
}

function spellings(number: string): string[] {
  const groups = /^3[47]/.test(number) ? [number.slice(0, 4), number.slice(4, 10), number.slice(10)] : (number.match(/.{1,4}/g) ?? []);
  return [number, groups.join(' '), groups.join('-')];
}

const NEEDLES = [
  ...TEST_CARDS.flatMap((card) => spellings(card.number).map((text) => ({ text, what: `test card ${card.number.slice(0, 6)}…` }))),
  ...TEST_CVVS.flatMap((cvv) => [`"${cvv}"`, `:${cvv},`, `:${cvv}}`, `=${cvv}`].map((text) => ({ text, what: 'a test CVV' }))),
];
const UNREDACTED_SECRET = /"(cvv|cvc|card_cvv|cc_number|card_number|number)"\s*:\s*(?!"\[redacted\]")[^,}\]]/i;

export function scanLogCapture(text: string): CaptureFinding[] {
  const findings: CaptureFinding[] = [];
  text.split('\n').forEach((content, index) => {
    for (const needle of NEEDLES) if (content.includes(needle.text)) findings.push({ line: index + 1, what: needle.what });
    if (UNREDACTED_SECRET.test(content)) findings.push({ line: index + 1, what: 'a card field that is not redacted' });
  });
  return findings;
}
