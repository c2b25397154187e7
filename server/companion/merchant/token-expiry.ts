/**
 * A saved card's token expiry. The gateway writes it without a zone (`yyyy-MM-ddTHH:mm:ss`,
 * UTC); read so, it is refused past (409 `card_expired`) and answered as RFC 3339 like every
 * other time of the API, since a client's date parser takes a zone-less time as local.
 */

/** Milliseconds since the epoch; undefined when there is none or it does not read as a time. */
export function tokenExpiresAt(text: string | null): number | undefined {
  // A date and a time, as the gateway writes them: Date.parse alone would read "1" as 2001.
  if (!text || !DATE_TIME.test(text)) return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const at = Date.parse(zoned);
  return Number.isNaN(at) ? undefined : at;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
