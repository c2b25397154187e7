/** An instant in a query string (`?from=`, `?created_from=`): ISO 8601 with its offset, read as epoch milliseconds. */
import * as z from 'zod';

const REASON = 'must be an ISO 8601 date-time with its offset';

/** `…T00:00:00 02:00`: an offset's `+` written as is in a URL, which a query string reads as a space. */
const PLUS_READ_AS_SPACE = /T[\d:.]+ \d{2}:?\d{2}$/;
/**
 * `…T00:00:00+0200`: an offset without its colon, as strftime's `%z` writes it (Ruby's
 * `Time#to_s`, `2026-11-01 00:00:00 +0200`; PHP's `DATE_ISO8601`): it has an offset, so the
 * reason says what is wrong with it rather than ask for one.
 */
const OFFSET_WITHOUT_COLON = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)? ?[+-]\d{4}$/;

function reason(input: unknown): string {
  if (typeof input !== 'string') return REASON;
  if (PLUS_READ_AS_SPACE.test(input)) return `${REASON}: its + reads as a space in a query string, write it %2B (2026-11-01T00:00:00%2B02:00)`;
  if (OFFSET_WITHOUT_COLON.test(input)) return `${REASON} written +02:00, with a colon, not +0200 as strftime’s %z writes it (2026-11-01T00:00:00%2B02:00)`;
  return REASON;
}

// Seconds may be left out (`2026-11-01T00:00+02:00`), as ISO 8601 allows and people write.
export const QueryInstant = z
  .union([z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })], { error: ({ input }) => reason(input) })
  .transform((text) => Date.parse(text))
  // The ledger counts time from 1970: an earlier instant was refused there as a negative number.
  .refine((instant) => instant >= 0, { error: 'must be 1970-01-01T00:00:00Z or later' });
