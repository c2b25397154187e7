/** An instant in a query string (`?from=`, `?created_from=`): ISO 8601 with its offset, read as epoch milliseconds. */
import * as z from 'zod';

const REASON = 'must be an ISO 8601 date-time with its offset';

/** `…T00:00:00 02:00`: an offset's `+` written as is in a URL, which a query string reads as a space. */
const PLUS_READ_AS_SPACE = /T[\d:.]+ \d{2}:?\d{2}$/;

// Seconds may be left out (`2026-11-01T00:00+02:00`), as ISO 8601 allows and people write.
export const QueryInstant = z
  .union([z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })], {
    error: ({ input }) => (typeof input === 'string' && PLUS_READ_AS_SPACE.test(input) ? `${REASON}: its + reads as a space in a query string, write it %2B (2026-11-01T00:00:00%2B02:00)` : REASON),
  })
  .transform((text) => Date.parse(text))
  // The ledger counts time from 1970: an earlier instant was refused there as a negative number.
  .refine((instant) => instant >= 0, { error: 'must be 1970-01-01T00:00:00Z or later' });
