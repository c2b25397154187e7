/**
 * The inspector's routes under /_sandbox (no credentials, like the rest of the control plane):
 *
 *   GET /_sandbox                   the inspector page, for a browser (Accept: text/html); other
 *                                   callers get the projects as JSON (control-routes.ts)
 *   GET /_sandbox/requests          {requests, cursor}: recorded requests, newest first, each with
 *                                   its notes and the webhooks it caused; ?after=<cursor> gives
 *                                   only those recorded since; ?format=html the list as HTML
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod';
import { inspectorListing } from '../inspector/listing.js';
import { inspectorPage, requestList } from '../pages/inspector-view.js';
import { sendPage } from '../pages/layout.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import type { SandboxEnv } from './env.js';
import { parseInput, readQuery } from './request-input.js';

const RequestsQuery = z.strictObject({
  after: z.string().regex(/^\d{1,15}$/, 'must be a cursor: a whole number').transform(Number).optional(),
  format: z.enum(['json', 'html']).optional(),
});

export function inspectorRoutes(gateway: SimulatedGateway): Hono<SandboxEnv> {
  const inspector = new Hono<SandboxEnv>();

  inspector.get('/', async (c, next) => {
    if (!wantsPage(c)) return next();
    return sendPage(c, inspectorPage(inspectorListing(gateway), gateway.config.projects), { scripts: true });
  });

  inspector.get('/requests', async (c) => {
    const query = parseInput(RequestsQuery, readQuery(c));
    const listing = inspectorListing(gateway, query.after);
    if (query.format === 'html') return sendPage(c, requestList(listing));
    return c.json(listing);
  });

  return inspector;
}

/** A browser asks for HTML; fetch, curl and test clients ask for anything (JSON, as before). */
function wantsPage(c: Context): boolean {
  return /\btext\/html\b/i.test(c.req.header('accept') ?? '');
}
