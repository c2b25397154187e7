// The back office is served beside the companion's own paths, never over one: at /readyz it
// would answer every readiness probe 200, at /metrics every Prometheus scrape with its page.
import { describe, expect, it } from 'vitest';
import { GatewayClient } from '@payform/gateway';
import { TEST_PROJECT_DEFAULTS } from '@payform/gateway/testing';
import { openLedger } from '../../ledger/index.js';
import { createCompanion } from '../app.js';
import { readCompanionConfig } from '../settings.js';
import { COMPANION_PATHS } from './back-office-options.js';

const ownPaths = /must not be one of the companion's own paths \(\/api, \/checkout, \/healthz, \/metrics, \/readyz, \/webhooks, \/widget\)/;

async function companionOn(extra: Record<string, unknown> = {}) {
  const ledger = await openLedger(':memory:');
  const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:1', ...TEST_PROJECT_DEFAULTS });
  const base = { ledger, gateway, gatewayApiSecret: TEST_PROJECT_DEFAULTS.apiSecret, publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token' };
  return { ledger, make: () => createCompanion({ ...base, ...extra }) };
}

describe('the back office path', () => {
  it.each(['/readyz', '/metrics', '/healthz', '/api', '/api/admin', '/webhooks', '/widget', '/checkout', '/readyz/admin'])('refuses %s, naming PAYFORM_BACK_OFFICE', (path) => {
    expect(() => readCompanionConfig({ PAYFORM_BACK_OFFICE: path })).toThrow(new RegExp(`PAYFORM_BACK_OFFICE: ${ownPaths.source}`));
  });

  it('refuses one of them given in code, naming the option', async () => {
    for (const path of ['/readyz', '/metrics']) {
      const { ledger, make } = await companionOn({ backOffice: { path } });
      expect(make).toThrow(new RegExp(`backOffice\\.path: ${ownPaths.source}`));
      await ledger.close();
    }
  });

  it('takes a path beside them', () => {
    for (const path of ['/admin', '/readyz-board', '/metrics2', '/apis']) expect(readCompanionConfig({ PAYFORM_BACK_OFFICE: path }).backOffice).toEqual({ path });
  });

  it('reserves every path the companion serves, /metrics included', async () => {
    const { ledger, make } = await companionOn({ metricsToken: 'a-long-enough-metrics-token' });
    const app = make();
    // Each route's first segment (middleware on every path, `/*`, is none).
    const served = new Set(app.routes.map(({ path }) => path.split('/')[1]).filter((first) => first && first !== '*'));
    expect([...served].sort()).toEqual(COMPANION_PATHS.map((path) => path.slice(1)));
    await app.companion.stop();
    await ledger.close();
  });
});
