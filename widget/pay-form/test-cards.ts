import type { html as Html, TemplateResult } from 'lit';
import type { FieldName } from '../events.js';
import type { Catalog, Message } from '../i18n/en.js';

/**
 * Test mode's quick-fill list of the sandbox's test cards (design.md). `<pay-form>` loads this
 * module only for test sessions, so pages taking real payments never download it. It takes Lit's
 * `html` from the form and imports nothing, so the bundle keeps Lit in its one file.
 */
const CARDS: readonly (readonly [number: string, outcome: Message])[] = [
  ['4242 4242 4242 4242', 't_ok'],
  ['5454 5454 5454 5454', 't_ok'],
  ['3782 822463 10005', 't_ok'],
  ['4000 0000 0000 3220', 't_3ds'],
  ['4000 0000 0000 0002', 't_declined'],
  ['4000 0000 0000 9995', 't_funds'],
  ['4000 0000 0000 0069', 't_expired'],
  ['4000 0000 0000 0119', 't_later'],
];

export const testCardStyles = new CSSStyleSheet();
testCardStyles.replaceSync(/* css */ `
  details {
    margin-top: var(--_space);
    font-size: 0.85em;
    color: var(--_muted);
  }
  summary {
    cursor: pointer;
  }
  ul {
    display: grid;
    margin: 6px 0 0;
    padding: 0;
    list-style: none;
  }
  li button {
    display: flex;
    justify-content: space-between;
    gap: 12px;
    width: 100%;
    padding: 4px 6px;
    border: 0;
    border-radius: 4px;
    background: none;
    color: inherit;
    font: inherit;
    cursor: pointer;
  }
  li button:hover {
    background: color-mix(in srgb, var(--_accent) 12%, transparent);
  }
  li span {
    color: var(--_fg);
    font-variant-numeric: tabular-nums;
  }
`);

/** The list; a click fills the card's number, an expiry three years ahead and a code of the right length. */
export const testCards = (html: typeof Html, t: Catalog, fill: (values: Partial<Record<FieldName, string>>) => void): TemplateResult =>
  html`<details part="test-cards"><summary>${t.test_cards}</summary><ul>${CARDS.map(
    ([number, outcome]) => html`<li><button type="button" @click=${() =>
      fill({ number, exp: `12/${String(new Date().getFullYear() + 3).slice(2)}`, cvv: number.startsWith('37') ? '1234' : '123' })}><span
      dir="ltr">${number}</span>${t[outcome]}</button></li>`,
  )}</ul></details>`;
