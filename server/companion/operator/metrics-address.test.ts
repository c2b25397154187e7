// PAYFORM_METRICS_ADDRESS: /metrics on a listener of its own, without a token — and nowhere on
// the companion's public port.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { eachServedSandbox } from '../test/served-sandbox.js';
import { createLogger, memorySink } from '../log/logger.js';
import { readCompanionConfig } from '../settings.js';
import { startCompanion } from '../start.js';
import { loopbackSettings } from '../test/loopback-settings.js';
import { rawRequest } from '../test/raw-request.js';

let sandbox: ServedSandbox;
let dir: string;
eachServedSandbox('payform-metrics-', (made) => ({ sandbox, dir } = made));

describe('PAYFORM_METRICS_ADDRESS', () => {
  it('serves /metrics on its own address without a token, and not on the public port', async () => {
    const settings = readCompanionConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: join(dir, 'payform.db'), ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_METRICS_ADDRESS: '127.0.0.1:0' });
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    try {
      expect(companion.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const scraped = await fetch(companion.metricsUrl!);
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toContain('# TYPE payform_payments_total counter');
      expect(text).toContain('payform_ledger_up 1');
      // A disk that refuses writes (reads still work): down here as on the token route.
      companion.app.companion.services.outage.noticed(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
      expect(await (await fetch(companion.metricsUrl!)).text()).toContain('payform_ledger_up 0');
      expect((await fetch(companion.metricsUrl!.replace(/\/metrics$/, '/api/orders'))).status).toBe(404);
      // A probe's HEAD finds it there, a POST is told the methods it takes.
      const probed = await fetch(companion.metricsUrl!, { method: 'HEAD' });
      expect([probed.status, probed.headers.get('content-type'), await probed.text()]).toEqual([200, expect.stringContaining('text/plain'), '']);
      const posted = await fetch(companion.metricsUrl!, { method: 'POST' });
      expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      expect((await fetch(`${companion.url}/metrics`)).status).toBe(404);
    } finally {
      await companion.close();
    }
  });

  it('answers on this machine only requests for its addresses and localhost, not a name a web page rebound to it', async () => {
    const log = memorySink();
    const settings = readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_METRICS_ADDRESS: '127.0.0.1:0' });
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: log.sink }) });
    try {
      const { port } = new URL(companion.metricsUrl!);
      const scrape = (host: string) => rawRequest(port, 'GET', '/metrics', { Host: host });
      // A page on rebound.example whose name now resolves to 127.0.0.1 reads it as its own origin.
      expect((await scrape(`rebound.example:${port}`)).status).toBe(403);
      expect((await scrape(`127.0.0.1.nip.example:${port}`)).status).toBe(403);
      expect((await scrape(`127.0.0.1:${port}`)).status).toBe(200);
      expect((await scrape(`localhost:${port}`)).status).toBe(200);
      expect((await scrape(`[::1]:${port}`)).status).toBe(200);
      const said = log.lines.filter((line) => line.includes('the metrics listener (PAYFORM_METRICS_ADDRESS) refused a request for the host'));
      expect(said).toHaveLength(1);
      expect(JSON.parse(said[0]!)).toMatchObject({ level: 'warn', host: 'rebound.example' });
    } finally {
      await companion.close();
    }
  });

  it('names the variable when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const settings = loopbackSettings({ PAYFORM_METRICS_ADDRESS: `127.0.0.1:${port}` });
      await expect(startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
        `port ${port} is already in use: set PAYFORM_METRICS_ADDRESS to a free port`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('is refused at start when it is not host:port', () => {
    expect(() => readCompanionConfig({ PAYFORM_METRICS_ADDRESS: '9464' })).toThrow(/PAYFORM_METRICS_ADDRESS: must be host:port/);
    expect(() => readCompanionConfig({ PAYFORM_METRICS_TOKEN: 'short' })).toThrow(/PAYFORM_METRICS_TOKEN: must be at least 16 characters/);
    expect(() => readCompanionConfig({ PAYFORM_METRICS_TOKEN: 'a metrics token of words' })).toThrow(/PAYFORM_METRICS_TOKEN: must be one word of visible ASCII characters.*character 2 is a space/);
    expect(() => readCompanionConfig({ PAYFORM_ADMIN_TOKEN: 'an admin token of words' })).toThrow(/PAYFORM_ADMIN_TOKEN: must be one word of visible ASCII characters.*character 3 is a space/);
    expect(readCompanionConfig({ PAYFORM_METRICS_ADDRESS: '[::1]:9464' }).metricsAddress).toEqual({ host: '::1', port: 9464 });
  });
});
