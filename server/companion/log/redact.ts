/**
 * The companion's mask, for logs and for what it stores and shows alike: the gateway package's
 * `redact` — secrets under their keys replaced, card numbers however written masked
 * (`@payform/card`'s recogniser), and CVVs in text that mentions one. Ids, phones, timestamps and
 * amounts are kept as written, so a log line can still be searched for the order it is about.
 */
import { maskCardData, redact } from '@payform/gateway';

export { REDACTED } from '@payform/gateway';

export { redact };

/** Text safe to store and show: card numbers masked, and CVVs in text that mentions one. */
export const maskStoredText = (text: string): string => maskCardData(text);

/** A copy of a gateway body safe to store and show: the same mask as the logs'. */
export const redactForStorage: (value: unknown) => unknown = redact;
