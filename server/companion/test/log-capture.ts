/**
 * The check `.ci/test` runs over PAYFORM_LOG_FILE after the whole Vitest run: every line any
 * companion wrote during the suites, searched for the test card numbers (however their digits
 * are written and separated) and the tests' CVVs, and for a CVV-like key whose value is not
 * redacted.
 */
import { TEST_CARDS } from '@payform/gateway/testing';
import { foldDigits } from '@payform/card';
import { TEST_CVVS } from './cards.js';

export interface CaptureFinding {
  readonly line: number;
  readonly what: string;
}

// A test card number however written: digits of any script folded to 0–9, mark-up tags dropped
// and, between two digits, up to eight characters that are neither letters nor digits (spaces of
// any width, tabs, dots, slashes, `|`, `+`, `:`, brackets, combining marks, " - "). Broader than
// the recogniser's own rule on purpose: this is the check of it. JSON writes a tab or a control
// character as an escape, read here as the character it stands for.
const GAP = String.raw`[^\p{L}\p{N}]{0,8}`;
const TAG = /<\/?[a-z][^<>]{0,80}>/gi;
const TEST_CARD = new RegExp(TEST_CARDS.map((card) => `(${card.number.split('').join(GAP)})`).join('|'), 'gu');
const JSON_ESCAPE = /\\(?:[bfnrt]|u[\da-fA-F]{4})/g;

// A test CVV as a string or a parameter anywhere, or as a JSON number under any key but the
// request line's duration: a request that took 737 ms is not a leak.
const CVV_NEEDLES = TEST_CVVS.flatMap((cvv) => [`"${cvv}"`, `=${cvv}`]);
const CVV_NUMBER = new RegExp(`(?<!"ms"):(?:${TEST_CVVS.join('|')})[,}]`);
const UNREDACTED_SECRET = /"(cvv|cvc|card_cvv|cc_number|card_number|number)"\s*:\s*(?!"\[redacted\]")[^,}\]]/i;

function testCardsIn(content: string): string[] {
  const found: string[] = [];
  for (const match of foldDigits(content.replace(JSON_ESCAPE, ' ').replace(TAG, '')).matchAll(TEST_CARD)) {
    const card = TEST_CARDS[match.slice(1).findIndex((group) => group !== undefined)]!;
    found.push(`test card ${card.number.slice(0, 6)}…`);
  }
  return found;
}

export function scanLogCapture(text: string): CaptureFinding[] {
  const findings: CaptureFinding[] = [];
  text.split('\n').forEach((content, index) => {
    for (const what of testCardsIn(content)) findings.push({ line: index + 1, what });
    if (CVV_NEEDLES.some((needle) => content.includes(needle)) || CVV_NUMBER.test(content)) findings.push({ line: index + 1, what: 'a test CVV' });
    if (UNREDACTED_SECRET.test(content)) findings.push({ line: index + 1, what: 'a card field that is not redacted' });
  });
  return findings;
}
