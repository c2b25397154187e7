// The public URL check's warning when the companion is mounted in a Hono app: where requests
// really reach it, told from where it was mounted (in process: the probe's fetch is the test's);
// and, between real companions over HTTP, an instance on the same ledger told from a companion
// on another one, behind a development proxy too, and an earlier version's from any server.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, request as forward } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { fileBackend, postgresBackend, withTestDatabase } from '../../ledger/testing/databases.js';
import type { CompanionEnv } from '../context.js';
import { createLogger } from '../log/logger.js';
import { starting } from '../start.js';
import { rawRequest } from '../test/raw-request.js';
import { eventually, stacksPerTest } from '../test/stack.js';
import { checkPublicUrl, INSTANCE_HEADER, LEDGER_HEADER } from './public-url-check.js';

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
  companion.use(checkPublicUrl({ publicUrl: `${ORIGIN}${basePath}`, basePath, ledgerTag: '0123456789abcdef', probeToken: 'probe', logger, fetch: fetch as typeof globalThis.fetch }));
  companion.get('/healthz', (c) => c.json({ status: 'ok' }));
  return { shop: mount(companion), warning, probed };
}

describe('the public URL check, mounted in a Hono app', () => {
  it('waits for a server that compiles the route on its first request, and says nothing when it is this companion', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', sink: (line) => lines.push(line) });
    const ours = '0123456789abcdef';
    // As a fresh `next dev` answers: seconds late, then as the companion does.
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      if (init?.method === 'POST') return Response.json({ error: { code: 'invalid_request', fields: { data: 'is required' } } }, { status: 400 });
      await sleep(3_500, undefined, { signal: init?.signal ?? undefined });
      return new Response(null, { status: 405, headers: { [INSTANCE_HEADER]: 'another-instance', [LEDGER_HEADER]: ours } });
    };
    const companion = new Hono<CompanionEnv>().basePath('/payments') as Hono<CompanionEnv>;
    companion.use(checkPublicUrl({ publicUrl: `${ORIGIN}/payments`, basePath: '/payments', ledgerTag: ours, probeToken: 'probe', logger, fetch: fetch as typeof globalThis.fetch }));
    companion.get('/healthz', (c) => c.json({ status: 'ok' }));
    expect((await new Hono().route('/', companion).request(`${ORIGIN}/payments/healthz`)).status).toBe(200);
    await eventually(() => expect(lines.join('\n')).toContain('PAYFORM_PUBLIC_URL reaches this companion'));
    // It said "nothing answers … (no answer within 3 s)", an error, on every fresh start.
    expect(lines.filter((line) => JSON.parse(line).level === 'error')).toEqual([]);
  });

  it('says the base path is doubled when the mount path and basePath both add it, and where requests really reach the companion', async () => {
    const { shop, warning, probed } = mounted('/payments', (companion) => new Hono().route('/payments', companion));
    expect((await shop.request(`${ORIGIN}/payments/payments/healthz`)).status).toBe(200);
    const message = await warning;
    expect(probed).toEqual([`${ORIGIN}/payments/webhooks/gateway`]);
    expect(message).toContain(`${ORIGIN}/payments/webhooks/gateway, where the gateway posts webhooks, answers 404 from a server that is not a payform companion`);
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
    // The 404 comes from where the host's own call reached it, in process: that proves no mount,
    // so it is not called the right address; the mount is the fix, at the public URL's path.
    expect(message).toContain('are sent there: the server there answers 404 itself, so the companion is probably not mounted at that path in it (it was first asked in process, by its host’s own call, which says nothing of where the host mounts it)');
    expect(message).toContain("Mount it at /payments (its base path), before the server's 404 handler (in NestJS and Express, app.use('/payments', …) before listen())");
    expect(message).not.toContain('set it to the address the companion answers at');
    expect(message).not.toContain('doubled');
    expect(message).not.toContain('mounted under');
  });

  it('answers a first request whose Host no URL can hold, and checks from the next one', async () => {
    const { shop, warning, probed } = mounted('/payments', (companion) => new Hono().route('/payments', companion));
    const server = serve({ fetch: shop.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      // @hono/node-server lets `xn--` through (it checks a Host's characters only); no URL holds it.
      expect((await rawRequest(port, 'GET', '/payments/payments/healthz', { Host: 'xn--' })).status).toBe(200);
      expect(probed).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${port}/payments/payments/healthz`)).status).toBe(200);
      expect(await warning).toContain('The base path is doubled');
      expect(probed).toEqual([`${ORIGIN}/payments/webhooks/gateway`]);
    } finally {
      server.close();
    }
  });
});

describe('the public URL check, for an address off this machine', () => {
  /** The bin behind the shop's proxy at shop.example/pay, the probe's fetch the test's: the check's line, once logged. */
  function behindProxy(answer: () => Promise<Response>) {
    const lines: { level: string; msg: string }[] = [];
    const logger = createLogger({ sink: (line) => void lines.push(JSON.parse(line)) });
    const probed: string[] = [];
    const fetch = async (url: string | URL | Request) => (probed.push(String(url)), answer());
    const companion = new Hono<CompanionEnv>();
    companion.use(checkPublicUrl({ publicUrl: 'https://shop.example', basePath: '', ledgerTag: '0123456789abcdef', probeToken: 'probe', logger, fetch: fetch as typeof globalThis.fetch }));
    companion.get('/healthz', (c) => c.json({ status: 'ok' }));
    return { companion, lines, probed };
  }

  it("asks it too: the prefix left out, the shop's own server answers there, and every webhook would be lost", async () => {
    const { companion, lines, probed } = behindProxy(async () => new Response('<!doctype html><title>Not found</title>', { status: 404, headers: { 'Content-Type': 'text/html' } }));
    expect((await companion.request('http://127.0.0.1:3000/healthz')).status).toBe(200);
    await eventually(() => expect(lines).toHaveLength(1));
    expect(probed).toEqual(['https://shop.example/webhooks/gateway']);
    expect(lines[0]).toMatchObject({ level: 'error', msg: expect.stringContaining('https://shop.example/webhooks/gateway, where the gateway posts webhooks, answers 404 from a server that is not a payform companion') });
  });

  it('names where a redirect points, and the proxy the first request came through rather than its address for the companion', async () => {
    const { companion, lines } = behindProxy(async () => new Response(null, { status: 301, headers: { Location: '/pay/webhooks/gateway' } }));
    await companion.request('http://127.0.0.1:3000/healthz', { headers: { 'X-Forwarded-For': '198.51.100.7' } });
    await eventually(() => expect(lines).toHaveLength(1));
    expect(lines[0]!.msg).toContain('https://shop.example/webhooks/gateway, where the gateway posts webhooks, answers 301 redirecting to https://shop.example/pay/webhooks/gateway from a server');
    expect(lines[0]!.msg).toContain('requests reach this companion through a proxy (they carry X-Forwarded-For), which asks it at http://127.0.0.1:3000: give the public address the proxy serves it at');
  });

  it('names the prefix a proxy that keeps Host takes off, not a mount, when it is asked at the public address itself', async () => {
    const { companion, lines } = behindProxy(async () => new Response('<!doctype html><div id="app"></div>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    await companion.request('https://shop.example/healthz', { headers: { 'X-Forwarded-For': '198.51.100.7' } });
    await eventually(() => expect(lines).toHaveLength(1));
    expect(lines[0]!.msg).toContain('requests reach this companion through a proxy (they carry X-Forwarded-For), which asks it at https://shop.example: give the public address the proxy serves it at, with the path the proxy forwards to it');
    expect(lines[0]!.msg).not.toContain('the address is right');
  });

  it("names a stranger's Host as what it is, never as the address to give", async () => {
    const answer = async () => new Response('<!doctype html><title>Not found</title>', { status: 404, headers: { 'Content-Type': 'text/html' } });
    // The first request anyone sends: its Host is whatever its sender wrote.
    const stranger = behindProxy(answer);
    await stranger.companion.request('http://attacker.example/healthz');
    await eventually(() => expect(stranger.lines).toHaveLength(1));
    expect(stranger.lines[0]!.msg).toContain(
      'requests reach this companion at http://attacker.example (the host its first request named in Host, which any sender writes: check it is yours)',
    );
    // This machine's name, or the public URL's own host, is what the companion was really asked at.
    for (const host of ['http://127.0.0.1:3000', 'http://shop.example']) {
      const own = behindProxy(answer);
      await own.companion.request(`${host}/healthz`);
      await eventually(() => expect(own.lines).toHaveLength(1));
      expect(own.lines[0]!.msg).toContain(`requests reach this companion at ${host}`);
      expect(own.lines[0]!.msg).not.toContain('which any sender writes');
    }
  });

  it('says it could not be checked, as a warning, when nothing answers there from this machine', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const { companion, lines } = behindProxy(() => Promise.reject(refused));
    await companion.request('http://127.0.0.1:3000/healthz');
    await eventually(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toMatchObject({ level: 'warn', msg: expect.stringContaining('PAYFORM_PUBLIC_URL (or the publicUrl option) could not be checked from this machine: nothing answers at https://shop.example (ECONNREFUSED)') });
    expect(lines[0]!.msg).toContain('pay with the 3-D Secure test card through that address and see the webhook arrive');
  });
});

/** The check's lines in a stack's log, as written. */
function checkLines(logs: readonly string[]): { level: string; msg: string }[] {
  return logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.startsWith('PAYFORM_PUBLIC_URL'));
}

/** The check's one line, once it is logged. */
const theCheckLine = (logs: readonly string[]) =>
  eventually(() => {
    const lines = checkLines(logs);
    expect(lines).toHaveLength(1);
    return lines;
  });

const METRICS_TOKEN = 'a-metrics-token-for-the-check';

describe('the public URL check, between real companions', () => {
  const open = stacksPerTest();

  it('warns once when the public URL reaches a companion on another ledger, naming what answered and the fix', async () => {
    const other = await open({ served: true, backend: fileBackend, companion: { metricsToken: METRICS_TOKEN } });
    const stack = await open({ served: true, backend: fileBackend, companion: { publicUrl: other.companionUrl, metricsToken: METRICS_TOKEN } });
    // Both are alive and say so; each names its own ledger.
    const [here, there] = [await stack.request('GET', '/healthz'), await other.request('GET', '/healthz')];
    expect([here.status, await here.json(), there.status, await there.json()]).toEqual([200, { status: 'ok' }, 200, { status: 'ok' }]);
    const [ours, theirs] = [here.headers.get(LEDGER_HEADER), there.headers.get(LEDGER_HEADER)];
    expect(ours).toMatch(/^[0-9a-f]{16}$/);
    expect(theirs).toMatch(/^[0-9a-f]{16}$/);
    expect(ours).not.toBe(theirs);

    await stack.request('GET', '/healthz');
    const [warning] = await theCheckLine(stack.logs);
    expect(warning!.level).toBe('error');
    expect(warning!.msg).toBe(
      `PAYFORM_PUBLIC_URL (or the publicUrl option) does not reach this companion: ${other.companionUrl}/webhooks/gateway answers from another payform companion, ` +
        `on another ledger (${LEDGER_HEADER} ${theirs} there, ${ours} here): another shop's or checkout's, or one on a port typed wrong. ` +
        "Its ledger knows none of this companion's payments, which would stay pending. The customer's way back from 3-D Secure or the hosted page, " +
        `and the gateway's webhooks, are sent there: set it to the address the companion answers at; requests reach this companion at ${stack.companionUrl}. ` +
        'Or, if that companion is another instance of this one, the two run on different databases (the one whose start made a new ledger said so in its log: ' +
        '`new: made by this start`): give every instance the same PAYFORM_DATABASE_URL (the same file)',
    );
    // And a gauge an alert pages on, where one instance's line is easily missed; the other's URL reaches it.
    const wrongUrl = async (on: typeof stack) => /^payform_public_url_wrong (\d)$/m.exec(await (await on.request('GET', '/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text())?.[1];
    expect([await wrongUrl(stack), await wrongUrl(other)]).toEqual(['1', '0']);
  });

  it('says a companion answered 404 at a path it has no route for, not a server that is no companion', async () => {
    const other = await open({ served: true, backend: fileBackend });
    // A base path typed into the public URL of a companion that has none.
    const stack = await open({ served: true, backend: fileBackend, companion: { publicUrl: `${other.companionUrl}/pay` } });
    await stack.request('GET', '/healthz');
    const [warning] = await theCheckLine(stack.logs);
    expect(warning!.level).toBe('error');
    expect(warning!.msg).toContain(
      `${other.companionUrl}/pay/webhooks/gateway, where the gateway posts webhooks, is answered 404 by a payform companion that has no route at that path (it has no base path).`,
    );
    expect(warning!.msg).not.toContain('not a payform companion');
    expect(warning!.msg).toContain(`set it to the address the companion answers at; requests reach this companion at ${stack.companionUrl}`);
  });

  it('asks a companion still opening its ledger again, until it says which ledger it serves', async () => {
    const other = await open({ served: true, backend: fileBackend });
    // Where the public URL points: startCompanion's answer while it opens the ledger, then the companion.
    let opened = false;
    let asked = 0;
    const front = serve({ fetch: (request, env) => ((asked += 1), opened ? other.companion.fetch(request, env) : starting(request, '', {})), port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((resolve) => front.once('listening', resolve));
    const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    try {
      const stack = await open({ served: true, backend: fileBackend, companion: { publicUrl: frontUrl } });
      await stack.request('GET', '/healthz');
      await eventually(() => expect(asked).toBeGreaterThan(0));
      expect(checkLines(stack.logs)).toEqual([]);
      opened = true;
      const [warning] = await theCheckLine(stack.logs);
      expect(warning!.msg).toContain(`does not reach this companion: ${frontUrl}/webhooks/gateway answers from another payform companion, on another ledger (${LEDGER_HEADER} `);
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('takes a 0.2 companion, known by how its webhook route refuses a GET, as a companion at once (a rolling upgrade), and no other server', async () => {
    // What 0.2 answers (run from its release commit): /healthz without a header, and the webhook
    // route's refusal of a GET, which 0.3 before the route named itself answers too.
    const earlier = await server((request) =>
      request.url === '/webhooks/gateway'
        ? Response.json({ error: { code: 'method_not_allowed', message: 'Use POST' } }, { status: 405, headers: { Allow: 'POST' } })
        : Response.json({ status: 'ok' }),
    );
    // Any app says {"status":"ok"}, and refuses a GET where it takes posts.
    const unrelated = await server((request) =>
      request.url === '/webhooks/gateway' ? Response.json({ error: 'Method Not Allowed' }, { status: 405, headers: { Allow: 'POST' } }) : Response.json({ status: 'ok' }),
    );
    try {
      const upgrading = await open({ served: true, backend: fileBackend, companion: { publicUrl: earlier.url } });
      const stranger = await open({ served: true, backend: fileBackend, companion: { publicUrl: unrelated.url } });
      await Promise.all([upgrading.request('GET', '/healthz'), stranger.request('GET', '/healthz')]);
      const [upgradingLines, strangerLines] = await eventually(() => {
        const found = [checkLines(upgrading.logs), checkLines(stranger.logs)];
        expect(found.map((lines) => lines.length)).toEqual([1, 1]);
        return found;
      });
      expect(upgradingLines).toMatchObject([
        { level: 'debug', msg: `PAYFORM_PUBLIC_URL reaches a companion: ${earlier.url}/webhooks/gateway answers from an earlier version, which does not name its ledger` },
      ]);
      // Not taken for one still opening its ledger, asked every second for minutes.
      expect(earlier.asked).toEqual(['GET /webhooks/gateway']);
      expect(strangerLines).toMatchObject([{ level: 'error' }]);
      expect(strangerLines![0]!.msg).toContain(`${unrelated.url}/webhooks/gateway, where the gateway posts webhooks, answers 405 from a server that is not a payform companion`);
    } finally {
      await Promise.all([earlier.close(), unrelated.close()]);
    }
  });

  it('asks where the gateway posts, so a development proxy that forwards only what the gateway and browsers use passes', async () => {
    const other = await open({ served: true, backend: fileBackend });
    // Vite's or webpack's dev server in front: the companion's paths forwarded, /healthz not.
    let target = '';
    const proxy = await devProxy(() => target);
    try {
      const stack = await open({ served: true, backend: fileBackend, companion: { publicUrl: proxy.url } });
      target = stack.companionUrl;
      expect((await fetch(`${proxy.url}/healthz`)).status).toBe(404);
      await stack.request('GET', '/healthz');
      const lines = await theCheckLine(stack.logs);
      expect(lines).toMatchObject([{ level: 'debug', msg: `PAYFORM_PUBLIC_URL reaches this companion: ${proxy.url}/webhooks/gateway answers from an instance on its ledger` }]);

      // The same proxy in front of a companion on another ledger is still told apart.
      const misled = await open({ served: true, backend: fileBackend, companion: { publicUrl: proxy.url } });
      target = other.companionUrl;
      await misled.request('GET', '/healthz');
      const [warning] = await theCheckLine(misled.logs);
      expect(warning).toMatchObject({ level: 'error' });
      expect(warning!.msg).toContain(`does not reach this companion: ${proxy.url}/webhooks/gateway answers from another payform companion, on another ledger`);
      // Found on its ledger, the companion is posted to as the gateway posts; not on another.
      expect(proxy.forwarded).toEqual(['GET /webhooks/gateway', 'POST /webhooks/gateway', 'GET /webhooks/gateway']);
    } finally {
      await proxy.close();
    }
  });

  /** The check's warning, and the companion's log, through a server in front that lets the check's GET through and refuses posts as `refusing` says (`devProxy`). */
  async function warnedThrough(refusing: DevProxyOptions): Promise<{ readonly msg: string; readonly webhookUrl: string; readonly logs: readonly string[] }> {
    let target = '';
    const proxy = await devProxy(() => target, refusing);
    try {
      const stack = await open({ served: true, backend: fileBackend, companion: { publicUrl: proxy.url } });
      target = stack.companionUrl;
      await stack.request('GET', '/healthz');
      const [warning] = await theCheckLine(stack.logs);
      expect(warning).toMatchObject({ level: 'error' });
      return { msg: warning!.msg, webhookUrl: `${proxy.url}/webhooks/gateway`, logs: stack.logs };
    } finally {
      await proxy.close();
    }
  }

  it("warns when a server in front lets the check's GET through and refuses the gateway's form posts, as SvelteKit's CSRF check does", async () => {
    const { msg, webhookUrl, logs } = await warnedThrough({ refuseCrossSiteForms: true });
    expect(msg).toBe(
      `PAYFORM_PUBLIC_URL (or the publicUrl option) reaches this companion, but a form-encoded POST to ${webhookUrl} with no Origin header, as the gateway sends each webhook, ` +
        'is answered 403 from a server in front of it: every webhook would be refused there, and what changes at the gateway later (a refund or reversal made there) would never reach the ledger. ' +
        "Let such posts through to the companion: a CSRF check refuses them (SvelteKit's: csrf: { trustedOrigins: ['*'] }; Astro's: security: { checkOrigin: false }; " +
        "each with the check kept for your own routes, as docs/companion.md shows), or a firewall's rule",
    );
    // Nothing reached the webhook route to be stored or refused there.
    expect(logs.filter((line) => line.includes('/webhooks/gateway') && line.includes('"method":"POST"'))).toEqual([]);
  });

  it('warns when the route in front takes only GETs, as a React Router resource route without an action does, naming that', async () => {
    const { msg, webhookUrl } = await warnedThrough({ getsOnly: true });
    expect(msg).toContain(`a form-encoded POST to ${webhookUrl} with no Origin header, as the gateway sends each webhook, is answered 405 from a server in front of it`);
    expect(msg).toMatch(/Hand POST requests to the companion as well: the route in front of it takes only GETs \(a React Router resource route with a loader and no action; .*\)$/);
    expect(msg).not.toContain('CSRF');
  });

  it('says an https:// public URL where the companion speaks plain http is that, not that nothing answers', async () => {
    let warned!: (line: string) => void;
    const warning = new Promise<string>((resolve) => (warned = resolve));
    const logger = createLogger({ sink: (line) => line.includes('PAYFORM_PUBLIC_URL') && warned(JSON.parse(line).msg) });
    let check: ReturnType<typeof checkPublicUrl> | undefined;
    const app = new Hono<CompanionEnv>();
    app.use((c, next) => check!(c, next));
    app.get('/healthz', (c) => c.json({ status: 'ok' }));
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      check = checkPublicUrl({ publicUrl: `https://127.0.0.1:${port}`, basePath: '', ledgerTag: '0123456789abcdef', probeToken: 'probe', logger });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const message = await warning;
      expect(message).toContain(`what answers at https://127.0.0.1:${port} speaks plain http, not https`);
      expect(message).toContain(`requests reach this companion at http://127.0.0.1:${port}`);
      expect(message).not.toContain('nothing answers');
    } finally {
      server.close();
    }
  });

  it("answers a GET at the webhook route with its 405 naming the companion, as /healthz does, and takes the gateway's posts as before", async () => {
    const stack = await open({ served: true, backend: fileBackend });
    const health = await stack.request('GET', '/healthz');
    for (const method of ['GET', 'HEAD', 'PUT']) {
      const refused = await fetch(`${stack.companionUrl}/webhooks/gateway`, { method });
      expect([method, refused.status, refused.headers.get('allow')]).toEqual([method, 405, 'POST']);
      expect(refused.headers.get(INSTANCE_HEADER)).toBe(health.headers.get(INSTANCE_HEADER));
      expect(refused.headers.get(LEDGER_HEADER)).toBe(health.headers.get(LEDGER_HEADER));
      if (method !== 'HEAD') expect(await refused.json()).toEqual({ error: { code: 'method_not_allowed', message: 'Use POST' } });
    }
    const unsigned = await fetch(`${stack.companionUrl}/webhooks/gateway`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'data=e30' });
    expect(unsigned.status).toBe(400);
    expect(unsigned.headers.has(INSTANCE_HEADER)).toBe(false);
  });

  const sameLedger = (backend: LedgerBackend) =>
    it(`says nothing when the public URL reaches another instance on the same ledger (${backend.name})`, async () => {
      const stack = await open({ served: true, backend });
      const instance = await stack.instance({ publicUrl: stack.companionUrl });
      const [here, there] = [await instance.request('GET', '/healthz'), await stack.request('GET', '/healthz')];
      expect([here.status, there.status]).toEqual([200, 200]);
      expect(here.headers.get(LEDGER_HEADER)).toMatch(/^[0-9a-f]{16}$/);
      expect(here.headers.get(LEDGER_HEADER)).toBe(there.headers.get(LEDGER_HEADER));
      // Both checked (the instance's public URL is the first's, the first's its own) and found their ledger there.
      const lines = await eventually(() => {
        const found = checkLines(stack.logs);
        expect(found.filter(({ level }) => level === 'debug')).toHaveLength(2);
        return found;
      });
      expect(lines.filter(({ level }) => level !== 'debug')).toEqual([]);
      expect(lines.map(({ msg }) => msg)).toEqual(Array(2).fill(`PAYFORM_PUBLIC_URL reaches this companion: ${stack.companionUrl}/webhooks/gateway answers from an instance on its ledger`));
      // The checks' own posts (an empty form: 400) are not said to the operator as refused webhooks.
      const posted = stack.logs
        .map((line) => JSON.parse(line) as { level: string; msg: string; method?: string; route?: string; status?: number; own_check?: boolean })
        .filter(({ msg, method, route }) => msg === 'request' && method === 'POST' && route?.endsWith('/webhooks/gateway'));
      expect(posted.map(({ level, status, own_check }) => [level, status, own_check])).toEqual([['debug', 400, true], ['debug', 400, true]]);
      // Nor their GETs of it (405), which read as a stranger's request at every start.
      const asked = stack.logs
        .map((line) => JSON.parse(line) as { level: string; msg: string; method?: string; status?: number; own_check?: boolean })
        .filter(({ msg, method }) => msg === 'request' && method === 'GET');
      expect(asked.filter(({ own_check }) => own_check).length).toBeGreaterThanOrEqual(2);
      expect(asked.filter(({ level }) => level !== 'debug')).toEqual([]);
    });

  sameLedger(fileBackend);
  withTestDatabase((url) => sameLedger(postgresBackend(url)));
});

interface TestServer {
  readonly url: string;
  /** `METHOD /path` of each request, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

async function server(answer: (request: { method: string; url: string }) => Response): Promise<TestServer> {
  const asked: string[] = [];
  const listening = serve({
    fetch: (request) => {
      const { pathname } = new URL(request.url);
      asked.push(`${request.method} ${pathname}`);
      return answer({ method: request.method, url: pathname });
    },
    port: 0,
    hostname: '127.0.0.1',
  }) as Server;
  return listeningAt(listening, { asked });
}

/** What a server in front refuses: cross-site form posts as SvelteKit's CSRF check does; all but GETs as a React Router resource route with a loader and no action does. */
interface DevProxyOptions {
  readonly refuseCrossSiteForms?: boolean;
  readonly getsOnly?: boolean;
}

/** A development server's proxy: the companion's public paths forwarded to `target()`, anything else its own 404; refusing what `DevProxyOptions` say. */
async function devProxy(target: () => string, { refuseCrossSiteForms = false, getsOnly = false }: DevProxyOptions = {}): Promise<TestServer & { readonly forwarded: string[] }> {
  const forwarded: string[] = [];
  const proxy = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    if (!/^\/(webhooks|checkout|api|widget)(\/|$)/.test(path)) {
      outgoing.writeHead(404, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Not found</title>');
      return;
    }
    const form = /^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)/i.test(incoming.headers['content-type'] ?? '');
    if (getsOnly && incoming.method !== 'GET' && incoming.method !== 'HEAD') {
      outgoing.writeHead(405, { 'Content-Type': 'text/plain', Allow: 'GET, HEAD' }).end('Method Not Allowed');
      return;
    }
    if (refuseCrossSiteForms && incoming.method === 'POST' && form && incoming.headers.origin !== `http://${incoming.headers.host}`) {
      outgoing.writeHead(403, { 'Content-Type': 'text/plain' }).end('Cross-site POST form submissions are forbidden');
      return;
    }
    forwarded.push(`${incoming.method} ${path}`);
    const upstream = forward(`${target()}${path}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  return listeningAt(proxy, { asked: [], forwarded });
}

async function listeningAt<T extends object>(listening: Server, extra: T): Promise<T & Pick<TestServer, 'url' | 'close'>> {
  if (!listening.listening) await new Promise((resolve) => listening.once('listening', resolve));
  return {
    ...extra,
    url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        listening.closeAllConnections();
        listening.close(() => resolve());
      }),
  };
}
