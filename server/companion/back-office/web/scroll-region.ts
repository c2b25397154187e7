import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';

/**
 * A table that may scroll sideways on a narrow screen: focusable, so a keyboard can scroll it
 * (one with no button or link inside has no other stop), and named, so a screen reader says what
 * that stop is.
 */
export const scrollRegion = (name: string, table: TemplateResult): TemplateResult =>
  html`<div class="table-scroll" tabindex="0" role="region" aria-label=${t('table.region', { name })}>${table}</div>`;
