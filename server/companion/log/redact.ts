/**
 * The companion's two masks, over the gateway package's walk (`redactor`). Logs (`redact`) mask
 * card numbers however they are written (`@payform/widget/card`: any separators, any decimal
 * digits) and, as the gateway's echoes are masked, every run of 12–19 digits: a log line may lose
 * an id, never a card number. Stored bodies (`redactForStorage`) are audit data: only card numbers
 * are masked (and CVVs in text that mentions one), so a 12-digit gateway id or a `+` phone is kept.
 */
import { CARD_NUMBER_MASK, maskCardData, maskCvvMention, redactor } from '@payform/gateway';
import { maskCardNumbers } from '@payform/widget/card';

export { REDACTED } from '@payform/gateway';

/** A copy of `value` safe to log: secrets under their keys replaced, card data in keys, strings and numbers masked. */
export const redact: (value: unknown) => unknown = redactor((text) => maskCardData(maskCardNumbers(text, CARD_NUMBER_MASK)));

/** Gateway text safe to store and show: card numbers masked, and CVVs in text that mentions one; every other digit kept. */
export const maskStoredText = (text: string): string => maskCvvMention(maskCardNumbers(text, CARD_NUMBER_MASK));

/**
 * A copy of a gateway body safe to store and show: secrets under their keys replaced, keys,
 * strings and numbers masked as `maskStoredText` masks text.
 */
export const redactForStorage: (value: unknown) => unknown = redactor(maskStoredText);
