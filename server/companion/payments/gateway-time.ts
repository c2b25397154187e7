/**
 * A time the gateway writes (an operation's `created_at`, a saved card's token expiry): a date
 * and a time, most often without a zone, which is UTC. One reading for the whole companion, since
 * a client's own date parser takes a zone-less time as local.
 */

/** A date and a time, as the gateway writes them: Date.parse alone would read "1" as 2001. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([zZ]|[+-]\d{2}:?\d{2})?$/;

/** Milliseconds since the epoch; undefined when there is none or it does not read as a time. */
export function gatewayTime(timestamp: string | null | undefined): number | undefined {
  if (!timestamp || !DATE_TIME.test(timestamp)) return undefined;
  const zoned = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(timestamp) ? timestamp : `${timestamp}Z`;
  const time = Date.parse(zoned);
  return Number.isNaN(time) ? undefined : time;
}
