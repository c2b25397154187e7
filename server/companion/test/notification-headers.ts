/**
 * Signature headers to try a merchant's notification receiver with (the guide's receivers, run
 * in their own languages): those it must take — the companion's, and two `v1` while a secret is
 * replaced, the right one first or last — and a stranger's it must refuse without raising.
 */
import { signNotification } from '../payments/notify-url.js';

export function notificationHeaders(body: string, secret: string): { readonly taken: readonly string[]; readonly refused: readonly string[]; readonly t: number; readonly v1: string } {
  const t = Math.floor(Date.now() / 1000);
  const signed = signNotification(body, secret, t);
  const v1 = signed.split('v1=')[1]!;
  const zeros = '0'.repeat(64);
  return {
    t,
    v1,
    taken: [signed, `t=${t},v1=${v1},v1=${zeros}`, `t=${t},v1=${zeros},v1=${v1}`],
    // A non-ASCII v1 (Flask and Django hand such bytes over as Latin-1 text), another secret's, a stale one, none.
    refused: [`t=${t},v1=é`, `t=${t},v1=${zeros}`, `t=${t - 301},v1=${v1}`, ''],
  };
}
