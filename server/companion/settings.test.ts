// The environment the companion starts from, and the config createCompanion checks.
import { describe, expect, it } from 'vitest';
import { TEST_PROJECT_DEFAULTS } from '@payform/gateway/testing';
import { GatewayClient } from '@payform/gateway';
import { openLedger } from '../ledger/index.js';
import { createCompanion } from './app.js';
import { readCompanionConfig } from './settings.js';

/** A merchant's own gateway and credentials. */
const LIVE_GATEWAY = {
  GATEWAY_BASE_URL: 'https://api.gateway.example',
  GATEWAY_POS_ID: '11111111-2222-3333-4444-555555555555',
  GATEWAY_API_KEY: 'live-key',
  GATEWAY_API_SECRET: 'live-secret',
  GATEWAY_ENDPOINTS_KEY: 'live-endpoints',
};

describe('readCompanionConfig', () => {
  it('tokenizes when given a widget key, on the gateway’s URL unless a widget host is named', () => {
    expect(readCompanionConfig({}).tokenizer).toBeUndefined();
    expect(readCompanionConfig({ PAYFORM_GATEWAY_WIDGET_KEY: 'wk' }).tokenizer).toEqual({ widgetKey: 'wk', widgetUrl: undefined });
    expect(readCompanionConfig({ PAYFORM_GATEWAY_WIDGET_KEY: 'wk', PAYFORM_GATEWAY_WIDGET_URL: 'https://widget.gateway.example' }).tokenizer).toEqual({
      widgetKey: 'wk',
      widgetUrl: 'https://widget.gateway.example',
    });
    expect(() => readCompanionConfig({ PAYFORM_GATEWAY_WIDGET_URL: 'https://widget.gateway.example' })).toThrow(/PAYFORM_GATEWAY_WIDGET_URL needs PAYFORM_GATEWAY_WIDGET_KEY/);
    expect(() => readCompanionConfig({ PAYFORM_GATEWAY_WIDGET_KEY: 'wk', PAYFORM_GATEWAY_WIDGET_URL: 'widget' })).toThrow(/PAYFORM_GATEWAY_WIDGET_URL/);
  });

  it('runs on defaults: the bundled sandbox, SQLite in ./data, a generated admin token', () => {
    const settings = readCompanionConfig({});
    expect(settings).toMatchObject({
      port: 3000,
      host: undefined,
      production: false,
      publicUrl: 'http://localhost:3000',
      gatewayBaseUrl: undefined,
      credentials: TEST_PROJECT_DEFAULTS,
      databaseUrl: './data/payform.db',
      adminTokenGenerated: true,
      allowedOrigins: ['http://localhost:3000'],
      sandboxOrigin: undefined,
      testMode: true,
      captureOverReservePercent: 15,
      sessionTtlSeconds: 1800,
      trustProxy: false,
      logLevel: 'info',
    });
    expect(settings.adminToken.length).toBeGreaterThanOrEqual(32);
    expect(readCompanionConfig({}).adminToken).not.toBe(settings.adminToken);
  });

  it('takes every variable from the environment', () => {
    const settings = readCompanionConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://pay.shop.example/',
      ...LIVE_GATEWAY,
      DATABASE_URL: 'postgres://shop@db/payform',
      ADMIN_TOKEN: 'a-long-enough-admin-token',
      ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example/checkout',
      SANDBOX_ORIGIN: 'http://localhost:3001/',
      CAPTURE_OVER_RESERVE_PERCENT: '10',
      SESSION_TTL_SECONDS: '900',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'debug',
    });
    expect(settings).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://pay.shop.example',
      gatewayBaseUrl: 'https://api.gateway.example',
      credentials: { posId: '11111111-2222-3333-4444-555555555555', apiKey: 'live-key', apiSecret: 'live-secret', endpointsKey: 'live-endpoints' },
      databaseUrl: 'postgres://shop@db/payform',
      adminToken: 'a-long-enough-admin-token',
      adminTokenGenerated: false,
      allowedOrigins: ['https://shop.example', 'https://www.shop.example'],
      sandboxOrigin: 'http://localhost:3001',
      testMode: false,
      captureOverReservePercent: 10,
      sessionTtlSeconds: 900,
      trustProxy: true,
      logLevel: 'debug',
    });
  });

  it('names every wrong variable at once, never echoing a secret', () => {
    const attempt = () => readCompanionConfig({ PORT: 'eighty', PUBLIC_URL: 'ftp://x', ADMIN_TOKEN: 'short-secret', TRUST_PROXY: 'maybe', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(TypeError);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['PORT', 'PUBLIC_URL', 'ADMIN_TOKEN', 'TRUST_PROXY', 'LOG_LEVEL']) expect(message).toContain(name);
    expect(message).not.toContain('short-secret');
  });

  it('in production requires a real admin token, gateway and credentials', () => {
    expect(() => readCompanionConfig({ NODE_ENV: 'production' })).toThrow(
      'production needs ADMIN_TOKEN, GATEWAY_BASE_URL, GATEWAY_POS_ID, GATEWAY_API_KEY, GATEWAY_API_SECRET, GATEWAY_ENDPOINTS_KEY',
    );
  });

  describe('in production', () => {
    const live = { NODE_ENV: 'production', ADMIN_TOKEN: 'a-long-enough-admin-token', ...LIVE_GATEWAY };

    it('starts with its own credentials', () => {
      expect(readCompanionConfig(live)).toMatchObject({ testMode: false, sandboxOrigin: undefined, production: true });
    });

    it('refuses any one credential left at the test project\'s value', () => {
      for (const [name, value] of Object.entries(TEST_PROJECT_DEFAULTS)) {
        const variable = `GATEWAY_${name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
        expect(() => readCompanionConfig({ ...live, [variable]: value }), variable).toThrow(`Invalid environment: production needs ${variable}`);
      }
    });

    it('refuses SANDBOX_ORIGIN, which lets browsers be sent to a plain-http address', () => {
      expect(() => readCompanionConfig({ ...live, SANDBOX_ORIGIN: 'http://localhost:3001' })).toThrow(
        'Invalid environment: SANDBOX_ORIGIN must not be set in production',
      );
    });
  });
});

describe('createCompanion config', () => {
  it('refuses wrong settings naming them, without the token', async () => {
    const ledger = await openLedger(':memory:');
    const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:1', ...TEST_PROJECT_DEFAULTS });
    const base = { ledger, gateway, gatewayApiSecret: 'secret', publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token' };
    expect(() => createCompanion({ ...base, adminToken: 'tiny-token' })).toThrow(/adminToken: must be at least 16 characters/);
    expect(() => createCompanion({ ...base, publicUrl: 'localhost' })).toThrow(/publicUrl/);
    expect(() => createCompanion({ ...base, allowedOrigins: ['https://shop.example/path'] })).toThrow(/allowedOrigins\[0\]: must be an origin/);
    expect(() => createCompanion({ ...base, rateLimits: { perSession: 0 } })).toThrow(/rateLimits.perSession/);
    try {
      createCompanion({ ...base, adminToken: 'tiny-token' });
    } catch (error) {
      expect((error as Error).message).not.toContain('tiny-token');
    }
    expect(createCompanion(base).companion.services.options).toMatchObject({ publicUrl: 'http://localhost:3000', captureOverReservePercent: 0, testMode: false });
    await ledger.close();
  });
});
