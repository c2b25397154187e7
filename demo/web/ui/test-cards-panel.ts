/**
 * The sandbox's test cards (from server/gateway/test-project.ts, the one list the sandbox and
 * the companion share), each a button that copies its number. A polite live region says so.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { formatCardNumber, TEST_CARDS } from '@payform/gateway/testing';
import type { TestCard } from '@payform/gateway/testing';
import { t } from './i18n.js';

let copied: string | undefined;
let forget: ReturnType<typeof setTimeout> | undefined;

const BRANDS: Record<TestCard['brand'], string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };

export function testCardsPanel(refresh: () => void): TemplateResult {
  const copy = async (card: TestCard) => {
    try {
      await navigator.clipboard.writeText(card.number);
    } catch {
      // No clipboard (an insecure page, a refusal): the number stays on screen to type.
      return;
    }
    copied = card.number;
    clearTimeout(forget);
    forget = setTimeout(() => {
      copied = undefined;
      refresh();
    }, 2500);
    refresh();
  };
  return html`<section class="panel test-cards" aria-labelledby="test-cards-heading">
    <h2 id="test-cards-heading">${t('testCards.heading')} <span class="test-pill">${t('testMode')}</span></h2>
    <p class="muted">${t('testCards.hint')}</p>
    <ul>
      ${TEST_CARDS.map(
        (card) => html`<li>
          <button type="button" @click=${() => copy(card)}>
            <span class="outcome-dot outcome-dot--${card.outcome}" aria-hidden="true"></span>
            <span class="card-text"><span class="number" dir="ltr">${formatCardNumber(card.number)}<span class="visually-hidden">, ${BRANDS[card.brand]},</span></span>
              <span class="outcome">${t(`outcome.${card.outcome}`)}</span></span>
            <span class=${copied === card.number ? 'copied' : 'visually-hidden'}>${copied === card.number ? t('testCards.copied') : t('testCards.copy')}</span>
          </button>
        </li>`,
      )}
    </ul>
    <p class="visually-hidden" role="status">${copied ? `${t('testCards.copied')}: ${formatCardNumber(copied)}` : ''}</p>
  </section>`;
}
