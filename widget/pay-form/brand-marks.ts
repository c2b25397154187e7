import { html, nothing, type TemplateResult } from 'lit';
import type { Brand, BrandId } from '../card/brands.js';

// A mark is the scheme's colour with its name (upper-cased by CSS), or two circles for the
// Mastercard family: recognisable at 32×20 and a few bytes each, instead of the schemes' artwork.
const MARKS: Record<BrandId, [background: string, left?: string, right?: string]> = {
  visa: ['#1a1f71'],
  mastercard: ['#252525', '#eb001b', '#f79e1b'],
  amex: ['#1f72cd'],
  discover: ['#ff6000'],
  diners: ['#0079be'],
  jcb: ['#0b6b3a'],
  unionpay: ['#d10429'],
  maestro: ['#252525', '#0099df', '#eb001b'],
  mir: ['#0f754e'],
  prostir: ['#0057b8'],
};

/** The brand's mark; a faint blank card while the brand is unknown. */
export function brandMark(brand: Brand | undefined): TemplateResult {
  const [background, left = 'none', right = 'none'] = brand ? MARKS[brand.id] : ['currentColor'];
  const label = left === 'none' ? brand?.name.replace('American Express', 'Amex') ?? '' : '';
  return html`<svg part="icon" viewBox="0 0 32 20" role=${brand ? 'img' : nothing} aria-label=${brand?.name ?? nothing} aria-hidden=${brand ? nothing : 'true'}><rect
    width="32" height="20" rx="3" fill=${background} opacity=${brand ? 1 : 0.25} /><circle cx="12.5" cy="10" r="6" fill=${left} /><circle
    cx="19.5" cy="10" r="6" fill-opacity=".8" fill=${right} /><text x="16" y="13.4" textLength=${label.length > 4 ? 26 : nothing}
    lengthAdjust="spacingAndGlyphs">${label}</text></svg>`;
}
