// The public URL check's warning when the companion is mounted in a Hono app: where requests
// really reach it, told from where it was mounted. In process: the probe's fetch is the test's.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { CompanionEnv } from '../context.js';
import { createLogger } from '../log/logger.js';
import { checkPublicUrl } from './public-url-check.js';

const ORIGIN = 'http://127.0.0.1:4122';

/**
 * A companion-like app under `basePath` with the check, the shop that mounts it, and the
 * warning, once logged. Its public URL answers 404: a server that is not a companion.
 */
function mounted(basePath: string, mount: (companion: Hono<CompanionEnv>) => Hono) {
  let warned!: (line: string) => void;
  const warning = new Promise<string>((resolve) => (warned = resolve));
  const logger = createLogger({ sink: (line) => line.includes('PAYFORM_PUBLIC_URL') && warned(JSON.parse(line).msg) });
  const probed: string[] = [];
  const fetch = async (url: string | URL | Request) => (probed.push(String(url)), new Response('Not Found', { status: 404 }));
  const companion = new Hono<CompanionEnv>().basePath(basePath || '/') as Hono<CompanionEnv>;
  companion.use(checkPublicUrl({ publicUrl: `${ORIGIN}${basePath}`, basePath, logger, fetch: fetch as typeof globalThis.fetch }));
  companion.get('/healthz', (c) => c.json({ status: 'ok' }));
  return { shop: mount(companion), warning, probed };
}

describe('the public URL check, mounted in a Hono app', () => {
  it('says the base path is doubled when the mount path and basePath both add it, and where requests really reach the companion', async () => {
    const { shop, warning, probed } = mounted('/payments', (companion) => new Hono().route('/payments', companion));
    expect((await shop.request(`${ORIGIN}/payments/payments/healthz`)).status).toBe(200);
    const message = await warning;
    expect(probed).toEqual([`${ORIGIN}/payments/healthz`]);
    expect(message).toContain(`${ORIGIN}/payments/healthz answers 404 from a server that is not a payform companion`);
    expect(message).toContain(
      `The base path is doubled: requests reach this companion at ${ORIGIN}/payments/payments, as the mount path (/payments) and basePath both add /payments. ` +
        "basePath already puts the companion's routes under /payments: keep basePath /payments, and mount the app without /payments (Hono: route('/', companion.app))",
    );
    // Not where the public URL is: that was the contradiction.
    expect(message).not.toMatch(new RegExp(`reach this companion at ${ORIGIN}/payments(?!/payments)`));
    expect(message).not.toContain('set it to the address the companion answers at');
  });

  it('tells the mount path from a path below the companion that holds the base path again', async () => {
    const { shop, warning } = mounted('/payments', (companion) => new Hono().route('/payments', companion));
    // The first request names a customer called "payments": the mount is still /payments.
    await shop.request(`${ORIGIN}/payments/payments/api/customers/payments/cards`);
    expect(await warning).toContain(`requests reach this companion at ${ORIGIN}/payments/payments, as the mount path (/payments) and basePath both add /payments`);
  });

  it('says so too under a Hono app of its own base path', async () => {
    const { shop, warning } = mounted('/payments', (companion) => new Hono().basePath('/shop').route('/payments', companion));
    await shop.request(`${ORIGIN}/shop/payments/payments/healthz`);
    expect(await warning).toContain(`requests reach this companion at ${ORIGIN}/shop/payments/payments, as the mount path (/shop/payments) and basePath both add /payments`);
  });

  it('still names the path a Hono app mounts it under, and says nothing of one when it is mounted at the root', async () => {
    const underShop = mounted('/payments', (companion) => new Hono().basePath('/shop').route('/', companion));
    await underShop.shop.request(`${ORIGIN}/shop/payments/healthz`);
    expect(await underShop.warning).toContain(`requests reach this companion at ${ORIGIN}/shop/payments, mounted under /shop: set basePath to /shop/payments`);

    // Without a base path of its own, the commonest mount to get wrong.
    const noBasePath = mounted('', (companion) => new Hono().route('/shop', companion));
    await noBasePath.shop.request(`${ORIGIN}/shop/healthz`);
    expect(await noBasePath.warning).toContain(`requests reach this companion at ${ORIGIN}/shop, mounted under /shop: set basePath to /shop`);

    const atRoot = mounted('/payments', (companion) => new Hono().route('/', companion));
    await atRoot.shop.request(`${ORIGIN}/payments/api/customers/payments/cards`);
    const message = await atRoot.warning;
    expect(message).toMatch(/are sent there: set it to the address the companion answers at$/);
    expect(message).not.toContain('doubled');
    expect(message).not.toContain('mounted under');
  });
});
