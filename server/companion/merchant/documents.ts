/**
 * Receipts pass through from the gateway with its content type. Gateway HTML is shown under a
 * sandboxing policy: served from the companion's origin, a script in it must not run there.
 */
import type { Context } from 'hono';
import type { GatewayDocument } from '@payform/gateway';

export function sendDocument(c: Context, document: GatewayDocument, filename: string): Response {
  const html = document.contentType.toLowerCase().startsWith('text/html');
  c.header('Content-Type', document.contentType);
  c.header('Content-Disposition', `${html ? 'inline' : 'attachment'}; filename="${filename.replace(/[^\w.-]/g, '_')}"`);
  c.header('Content-Security-Policy', "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'");
  c.header('Cache-Control', 'private, no-store');
  return c.body(document.body as Uint8Array<ArrayBuffer>, 200);
}
