/**
 * The files a signed link leads to (download-links.ts), without the admin token: GET only, these
 * files only, each exactly as its link was issued for, until it expires.
 *
 *   GET /api/downloads/orders         ?<filters>&expires=&signature=   the orders CSV (order-export.ts)
 *   GET /api/downloads/movements      ?from=&to=&decimal_mark=&time_zone=&expires=&signature=   the journal of money moved (movement-routes.ts)
 *   GET /api/downloads/receipts/:date ?format=&method=&expires=&signature=   the day's ZIP
 *
 * The signature is checked before anything else about the request is judged. A day's ZIP the
 * instance kept when it issued the link is served as kept (kept-downloads.ts).
 */
import { Hono } from 'hono';
import type { CompanionEnv } from '../context.js';
import { validate } from '../http/validate.js';
import { ApiProblem } from '../http/problem.js';
import { linkId, requireSignedLink, unsealed } from './download-links.js';
import { keptDownloads } from './kept-downloads.js';
import { csvFormat } from './csv-file.js';
import { MOVEMENTS_DOWNLOAD_PATH, movementsCsv, SignedMovementExportQuery } from './movement-routes.js';
import { ORDERS_DOWNLOAD_PATH, ordersCsv } from './order-export.js';
import { OrderFilterQuery, orderSearch, SignedOrderFilterQuery } from './order-routes.js';
import { dayReceipts, receiptsDownloadPath, SignedDateReceiptsQuery } from './report-routes.js';

export function downloadRoutes(): Hono<CompanionEnv> {
  const downloads = new Hono<CompanionEnv>();
  downloads.get('/orders', requireSignedLink(() => ORDERS_DOWNLOAD_PATH), validate('query', SignedOrderFilterQuery), (c) => {
    const [format, { expires: _expires, signature: _signature, sealed, ...filters }] = csvFormat(c.req.valid('query'));
    // Sealed by this companion's key as they were judged: read again as any filter is.
    const customer = OrderFilterQuery.safeParse(unsealed(c, sealed));
    if (!customer.success) throw ApiProblem.invalid({ sealed: 'holds filters this companion does not take: ask for a new link' });
    return ordersCsv(c, orderSearch({ ...filters, ...customer.data }), format);
  });
  downloads.get('/movements', requireSignedLink(() => MOVEMENTS_DOWNLOAD_PATH), validate('query', SignedMovementExportQuery), (c) => {
    const [format, { expires: _expires, signature: _signature, ...period }] = csvFormat(c.req.valid('query'));
    return movementsCsv(c, period, format);
  });
  downloads.get('/receipts/:date', requireSignedLink((c) => receiptsDownloadPath(c.req.param('date') ?? '')), validate('query', SignedDateReceiptsQuery), (c) => {
    const { expires: _expires, signature: _signature, ...query } = c.req.valid('query');
    return dayReceipts(c, c.req.param('date'), query, keptDownloads(c.var.services).find(linkId(c.req.url)!));
  });
  return downloads;
}
