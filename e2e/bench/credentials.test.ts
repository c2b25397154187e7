/**
 * The bench with gateway credentials of its own in the environment (GATEWAY_*): the sandbox it
 * starts, the companion and the requests it sends straight to the sandbox all use them, so a
 * comparison runs as it does with the test project's. Short runs of the real sections: the
 * servers in their own processes, on loopback.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { measureRouteIngest, temporarySqlite } from './ingest.js';
import { measureCompanionOverhead } from './overhead.js';

const OWN_CREDENTIALS = {
  GATEWAY_POS_ID: '0b3f6a1e-2c4d-4e5f-8a9b-1c2d3e4f5a6b',
  GATEWAY_API_KEY: 'other-key',
  GATEWAY_API_SECRET: 'other-secret',
  GATEWAY_ENDPOINTS_KEY: 'other-endpoints-key',
};

describe('npm run bench with GATEWAY_* credentials set', () => {
  // On process.env itself: the servers the bench spawns inherit it.
  beforeEach(() => {
    for (const [name, value] of Object.entries(OWN_CREDENTIALS)) vi.stubEnv(name, value);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('pays both straight at the sandbox and through the companion (overhead)', async () => {
    const figures = await measureCompanionOverhead({ warmup: 2, samples: 10, concurrency: 2, throughputMs: 300 });
    expect(figures.direct.samples).toBe(10);
    expect(figures.viaCompanion.samples).toBe(10);
  }, 60_000);

  it('settles every payment from the webhooks it posts to the companion (ingest)', async () => {
    const file = temporarySqlite();
    try {
      const figures = await measureRouteIngest(file.url, { payments: 10, duplicateRatio: 0.1, concurrency: 2 });
      expect(figures).toMatchObject({ distinct: 20, appliedTwice: 0, notSettled: 0 });
    } finally {
      file.dispose();
    }
  }, 60_000);
});
