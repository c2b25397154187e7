/**
 * A URL as the sandbox shows it to a reader — its log, the inspector, the control plane's
 * answers — with the password in it (`https://shop:secret@…`, a receiver behind HTTP basic
 * authentication) as `***` (`passwordMasked`, as the companion's lines): it is the merchant's
 * secret, and those are read by more people than the merchant. Webhooks still go to the URL as
 * given (webhook-sender.ts). Any other text is shown as written.
 */
import { passwordMasked } from '@payform/gateway';

// A password needs an `@`: nearly every string of a body has none, and is never parsed.
export const shownUrl = (text: string): string => (text.includes('@') ? (passwordMasked(text) ?? text) : text);
