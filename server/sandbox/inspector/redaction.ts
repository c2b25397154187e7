/**
 * How the inspector masks what it shows: the companion's log redaction (card data and
 * credentials, server/gateway/redact.ts) and, in any value that is a URL, its password as the
 * sandbox's log shows it (shown-url.ts) — a request's server_url, a webhook's target.
 */
import { maskCardData, redactor } from '@payform/gateway';
import { shownUrl } from '../shown-url.js';

export const inspectorRedact: (value: unknown) => unknown = redactor((text) => maskCardData(shownUrl(text)));
