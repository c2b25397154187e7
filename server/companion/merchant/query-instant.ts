/** An instant in a query string (`?from=`, `?created_from=`): ISO 8601 with its offset, read as epoch milliseconds. */
import * as z from 'zod';

export const QueryInstant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with its offset' }).transform((text) => Date.parse(text));
