/**
 * Headers for browsers: security headers on every answer (a route's own — the widget's CORP,
 * a page's CSP — win), CORS on the widget-facing checkout API for the merchant's configured
 * origins only, and `no-store` on the API (sessions and orders must not sit in caches).
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import type { CompanionEnv } from '../context.js';

export function securityHeaders(publicUrl: string): MiddlewareHandler<CompanionEnv> {
  return secureHeaders({
    overwrite: false,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    // HSTS only where it means something: a companion reached over https.
    strictTransportSecurity: publicUrl.startsWith('https:') ? 'max-age=31536000; includeSubDomains' : false,
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    removePoweredBy: true,
  });
}

export function checkoutCors(allowedOrigins: readonly string[]): MiddlewareHandler<CompanionEnv> {
  const allowed = new Set(allowedOrigins);
  return cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST'],
    allowHeaders: ['Content-Type'],
    maxAge: 600,
  });
}

export function noStore(): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  };
}
