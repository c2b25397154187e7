/**
 * An order id that opens no order, in the page's words. One the companion handed out with a
 * checkout session nobody has paid yet (its 404 names the session) says so, in the page's
 * language; any other says what Find takes, as staff on the phone type what the customer reads
 * out — an e-mail or card digits as often as an id.
 */
import { isolatedText } from './bidi-isolation.js';
import { t } from './i18n.js';
import type { UnpaidSession } from './admin-api.js';

export function orderNotFound(orderId: string, session: UnpaidSession | undefined): string {
  const order = isolatedText(orderId);
  if (!session) return isolatedText(t('detail.notFound', { order }));
  // Open or expired, as the companion names a session without a payment.
  const key = session.status === 'expired' ? 'detail.unpaidExpired' : 'detail.unpaidOpen';
  return isolatedText(t(key, { order, session: isolatedText(session.id) }));
}
