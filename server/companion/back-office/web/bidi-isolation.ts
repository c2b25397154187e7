/**
 * Values written as one run — an amount, a time, an id, the gateway's own words — kept in their
 * own direction, whatever the text around them: in the right-to-left preview a time alone in its
 * cell read "PM 4:49", an amount "грн 98 765 427,10", an id "1042-shop" as "shop-1042". Each is
 * isolated from its neighbours, alone in a cell or inside a translated sentence: in markup by a
 * <bdi>, in plain text (an aria-label, a validation message) by FSI…PDI, which is what a <bdi>
 * does. Either takes the direction of the value's first letter (left to right when it has none,
 * as "16:49").
 *
 * A sentence with an isolated value in it is isolated as a whole too, taking the direction of its
 * own words: else, an isolate being neutral to the words around it, an English sentence in a
 * right-to-left page puts its last value on its left ("UAH 15.00 was"). The translator does so
 * for markup (translate.ts); plain text says it: `isolatedText(t(key, { amount: amountText(…) }))`.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { formatAmount } from './money.js';
import type { ApiAmount } from './money.js';

/** A value isolated in markup. */
export const isolated = (value: unknown): TemplateResult => html`<bdi>${value}</bdi>`;

/** U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE: a <bdi> where markup cannot go. */
export const isolatedText = (value: string | number): string => `\u2068${value}\u2069`;

/** An amount as the page's language writes it, isolated. */
export const shownAmount = (amount: ApiAmount, currency: string): TemplateResult => isolated(formatAmount(amount, currency));

/** An amount as the page's language writes it, isolated in plain text. */
export const amountText = (amount: ApiAmount, currency: string): string => isolatedText(formatAmount(amount, currency));
