import { html, type TemplateResult } from 'lit';
import type { Brand } from '@payform/card/fields';

/**
 * The brand's mark: its name on the scheme's colour (pay-form.styles.ts), a few bytes instead of
 * the schemes' artwork (in capitals, Amex's short name); a faint blank card while the brand is unknown.
 */
export const brandMark = (brand: Brand | undefined): TemplateResult =>
  brand
    ? html`<span part="icon" class=${brand.id} role="img" aria-label=${brand.name}>${brand.id === 'amex' ? brand.id : brand.name}</span>`
    : html`<span part="icon" aria-hidden="true"></span>`;
