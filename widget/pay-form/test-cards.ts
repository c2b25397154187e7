import type { html as Html, TemplateResult } from 'lit';
import type { FieldName } from '../events.js';
import type { PayForm } from './pay-form.js';

/**
 * Test mode's quick-fill list of the sandbox's test cards (design.md). The paying chunk loads this
 * module once a form shows a test session, so pages taking real payments never download it, nor
 * does the bundle every page loads first carry a byte of it. It takes Lit's `html` from the paying
 * chunk and imports nothing, so the bundle keeps Lit in its one file.
 */
const CARDS: readonly (readonly [number: string, outcome: number])[] = [
  ['4242 4242 4242 4242', 1],
  ['5454 5454 5454 5454', 1],
  ['3782 822463 10005', 1],
  ['4000 0000 0000 3220', 2],
  ['4000 0000 0000 0002', 3],
  ['4000 0000 0000 9995', 4],
  ['4000 0000 0000 0069', 5],
  ['4000 0000 0000 0119', 6],
];

/** The list's title, then what the cards do; test mode's words live here, not in the main catalogs. */
const WORDS: Record<string, readonly string[]> = {
  en: ['Test cards', 'success', '3-D Secure', 'declined', 'insufficient funds', 'expired card', 'pending, then success'],
  uk: ['Тестові картки', 'успіх', '3-D Secure', 'відхилено', 'недостатньо коштів', 'прострочена картка', 'очікування, потім успіх'],
  pl: ['Karty testowe', 'sukces', '3-D Secure', 'odrzucona', 'brak środków', 'karta wygasła', 'oczekuje, potem sukces'],
  de: ['Testkarten', 'Erfolg', '3-D Secure', 'abgelehnt', 'keine Deckung', 'Karte abgelaufen', 'ausstehend, dann Erfolg'],
  fr: ['Cartes de test', 'succès', '3-D Secure', 'refusée', 'fonds insuffisants', 'carte expirée', 'en attente, puis succès'],
  es: ['Tarjetas de prueba', 'éxito', '3-D Secure', 'rechazada', 'fondos insuficientes', 'tarjeta caducada', 'pendiente, luego éxito'],
};

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
  /* Wrapped: where a card's number and outcome do not fit one line (a phone's column, large
     text), the outcome goes under the number rather than past the form's edge. */
  li button {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0 12px;
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

/**
 * The list for `form`, in the form's language, while it shows the form of a test session: not
 * once the page set a live one (nor while that one loads), nor over an outcome. The paying chunk
 * renders it under the form's footer. A click fills the card's number, an expiry three years
 * ahead and a code of the right length.
 */
export function testCards(form: PayForm, html: typeof Html): () => TemplateResult | '' {
  (form.renderRoot as ShadowRoot).adoptedStyleSheets.push(testCardStyles);
  const list = (): TemplateResult => {
    const words = WORDS[form.locale.split('-')[0]!.toLowerCase()] ?? WORDS.en!;
    return html`<details part="test-cards"><summary>${words[0]}</summary><ul>${CARDS.map(
      ([number, outcome]) => html`<li><button type="button" @click=${() =>
        fill(form, { number, exp: `12/${String(new Date().getFullYear() + 3).slice(2)}`, cvv: number.startsWith('37') ? '1234' : '123' })}><span
        dir="ltr">${number}</span><bdi>${words[outcome]}</bdi></button></li>`,
    )}</ul></details>`;
  };
  // `ready` or `paying`, as checkout-element.ts's `showsForm` (not imported: this module imports nothing).
  return () => (form.view?.test && !form.hosted && /^(r|pa)/.test(form.phase) ? list() : '');
}

/** Fills fields the way autofill does (a new card, not a saved one), then focuses what still needs the customer. */
async function fill(form: PayForm, values: Partial<Record<FieldName, string>>): Promise<void> {
  form.token = '';
  await form.updateComplete;
  for (const [name, value] of Object.entries(values)) {
    const input = form.field(name as FieldName)!;
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true }));
  }
  (form.inputs().find((input) => !form.check(input).valid) ?? form.renderRoot.querySelector<HTMLElement>('[part=button]'))?.focus();
}
