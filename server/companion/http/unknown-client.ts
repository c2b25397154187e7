/**
 * A host that passes no client address (a fetch mount without `clientAddress` or PAYFORM_TRUST_PROXY)
 * leaves the per-client limits nothing to count by: they step aside, since one count shared by
 * every payer would let anyone switch payments off. Said once per companion, not per request.
 */
import type { CompanionServices } from '../context.js';

const told = new WeakSet<CompanionServices>();

export function noteUnknownClient(services: CompanionServices): void {
  if (told.has(services)) return;
  told.add(services);
  services.logger.warn(
    'the client address is unknown: per-client rate limits are off (pay limits count per session only) and customer_ip is sent as 0.0.0.0; ' +
      "pass { clientAddress } to the companion's fetch where the host gives one (SvelteKit's event.getClientAddress(), Nuxt's getRequestIP(event)); " +
      'where it gives none (a Next.js route handler), set PAYFORM_TRUST_PROXY=true behind a proxy of yours that appends X-Forwarded-For — not with the host alone facing customers, where that header is theirs to write',
  );
}
