// The environment the companion starts from, and the config createCompanion checks.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_PROJECT_DEFAULTS } from '@payform/gateway/testing';
import { GatewayClient } from '@payform/gateway';
import { openLedger } from '../ledger/index.js';
import { createCompanion } from './app.js';
import { resolveConfig } from './config.js';
import type { CompanionConfig } from './config.js';
import { readCompanionConfig } from './settings.js';
import { leftAloneNotice } from './environment.js';

/** A merchant's own gateway and credentials. */
const LIVE_GATEWAY = {
  PAYFORM_GATEWAY_BASE_URL: 'https://api.gateway.example',
  PAYFORM_GATEWAY_POS_ID: '11111111-2222-3333-4444-555555555555',
  PAYFORM_GATEWAY_API_KEY: 'live-key',
  PAYFORM_GATEWAY_API_SECRET: 'live-secret',
  PAYFORM_GATEWAY_ENDPOINTS_KEY: 'live-endpoints',
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
      PAYFORM_HOST: '127.0.0.1',
      PAYFORM_PUBLIC_URL: 'https://pay.shop.example/',
      ...LIVE_GATEWAY,
      PAYFORM_DATABASE_URL: 'postgres://shop@db/payform',
      PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token',
      PAYFORM_ALLOWED_ORIGINS: 'https://shop.example, https://WWW.shop.example:443/',
      PAYFORM_SANDBOX_ORIGIN: 'http://localhost:3001/',
      PAYFORM_TEST_MODE: 'false',
      PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '10',
      PAYFORM_SESSION_TTL_SECONDS: '900',
      PAYFORM_ACCEPTED_BRANDS: 'visa, mastercard',
      PAYFORM_TRUST_PROXY: 'true',
      PAYFORM_LOG_LEVEL: 'debug',
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
      acceptedBrands: ['visa', 'mastercard'],
      trustProxy: true,
      logLevel: 'debug',
    });
  });

  it('refuses card schemes the widget does not know at start, with the id meant, and an empty list', () => {
    const base = { PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
    expect(readCompanionConfig(base).acceptedBrands).toBeUndefined();
    expect(() => readCompanionConfig({ ...base, PAYFORM_ACCEPTED_BRANDS: 'visa,American Express' })).toThrow(/PAYFORM_ACCEPTED_BRANDS\b.*"American Express" is amex/);
    expect(() => readCompanionConfig({ ...base, PAYFORM_ACCEPTED_BRANDS: ' , ' })).toThrow(/PAYFORM_ACCEPTED_BRANDS\b.*must name at least one brand/);
    // Blank is not unset: a value a template failed to fill would take every scheme without a word.
    for (const blank of ['', ' ']) expect(() => readCompanionConfig({ ...base, PAYFORM_ACCEPTED_BRANDS: blank })).toThrow(/PAYFORM_ACCEPTED_BRANDS is set but empty: name the card schemes/);
  });

  it('refuses an origin given as a page’s address at start, naming the origin it would be: only origins are compared', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        readCompanionConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      return expect.fail('expected a refusal');
    };
    expect(refusal({ PAYFORM_ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example/checkout' })).toBe(
      'Invalid environment: PAYFORM_ALLOWED_ORIGINS[1]: must be an origin (scheme, host, port), not an address with a path: only origins are compared, so give https://www.shop.example (all of its pages are then allowed)',
    );
    // A password given by mistake is not repeated; a 0.2 name is named as it was set.
    const sandbox = refusal({ SANDBOX_ORIGIN: 'http://dev:hunter2@localhost:3001/sandbox?x=1' });
    expect(sandbox).toMatch(/^Invalid environment: SANDBOX_ORIGIN: must be an origin \(scheme, host, port\), not an address with a path, a query and a user name: .* give http:\/\/localhost:3001 /);
    expect(sandbox).not.toContain('hunter2');
    expect(refusal({ ALLOWED_ORIGINS: 'https://shop.example#pay', GATEWAY_POS_ID: '11111111-2222-3333-4444-555555555555' })).toContain('ALLOWED_ORIGINS[0]: must be an origin (scheme, host, port), not an address with a fragment');
    // The scheme left out is no URL with a path: nothing tells the operator to set the origin `null`.
    expect(refusal({ PAYFORM_ALLOWED_ORIGINS: 'localhost:5173' })).toBe('Invalid environment: PAYFORM_ALLOWED_ORIGINS[0]: must be an http(s) origin, e.g. https://shop.example');
    // Origins run together with another separator: named so, not taken for one with a strange host.
    for (const list of ['https://a.example;https://b.example', 'https://a.example https://b.example']) {
      expect(refusal({ PAYFORM_ALLOWED_ORIGINS: list })).toBe('Invalid environment: PAYFORM_ALLOWED_ORIGINS[0]: must be one origin: separate several with commas (https://a.example,https://b.example)');
    }
  });

  it('runs test sessions on a sandbox of the merchant’s own projects: one on this machine, or one named by its origin', () => {
    const own = { PAYFORM_GATEWAY_POS_ID: '11111111-2222-3333-4444-555555555555', PAYFORM_GATEWAY_API_KEY: 'acme-key', PAYFORM_GATEWAY_API_SECRET: 'acme-secret', PAYFORM_GATEWAY_ENDPOINTS_KEY: 'acme-endpoints' };
    expect(readCompanionConfig({ ...own, PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:3001' }).testMode).toBe(true);
    expect(readCompanionConfig({ ...own, PAYFORM_GATEWAY_BASE_URL: 'http://sandbox:3001', PAYFORM_SANDBOX_ORIGIN: 'http://localhost:3001' }).testMode).toBe(true);
    expect(readCompanionConfig({ ...own, PAYFORM_GATEWAY_BASE_URL: 'https://api.gateway.example' }).testMode).toBe(false);
    expect(readCompanionConfig({ ...own, PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:3001', PAYFORM_TEST_MODE: 'false' }).testMode).toBe(false);
  });

  it('reads the unprefixed names of 0.2 when the prefixed ones are unset, reporting each once, and names them in errors', () => {
    const settings = readCompanionConfig({ SESSION_TTL_SECONDS: '900', DATABASE_URL: 'postgres://shop@db/payform', HOST: '0.0.0.0', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', ADMIN_TOKEN: 'ignored-because-prefixed-wins' });
    expect(settings).toMatchObject({ databaseUrl: 'postgres://shop@db/payform', host: '0.0.0.0', adminToken: 'a-long-enough-admin-token', sessionTtlSeconds: 900 });
    expect(settings.deprecations).toEqual([
      'HOST is deprecated: name it PAYFORM_HOST (the unprefixed names of 0.2 will stop being read)',
      'DATABASE_URL is deprecated: name it PAYFORM_DATABASE_URL (the unprefixed names of 0.2 will stop being read)',
      'SESSION_TTL_SECONDS is deprecated: name it PAYFORM_SESSION_TTL_SECONDS (the unprefixed names of 0.2 will stop being read)',
    ]);
    expect(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:' }).deprecations).toEqual([]);
    expect(() => readCompanionConfig({ GATEWAY_ENDPOINTS_KEY: 'e', LOG_LEVEL: 'loud' })).toThrow(/Invalid environment: LOG_LEVEL/);
  });

  it('refuses production on a DATABASE_URL it does not read, and another provider’s GATEWAY_API_KEY does not make it read', () => {
    const production = { ...LIVE_GATEWAY, NODE_ENV: 'production', PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_ADMIN_TOKEN: 'k3Jx9vQ2mPz8Lw4Rt7Yb' };
    expect(() => readCompanionConfig({ ...production, DATABASE_URL: 'postgres://db/payform' })).toThrow(
      /^Invalid environment: production needs PAYFORM_DATABASE_URL \(PAYFORM_DATABASE_URL: a postgres:\/\/ URL, .*; DATABASE_URL is set and left alone, as the shop's own: the companion reads PAYFORM_DATABASE_URL \(set it if meant for payform\)$/,
    );
    expect(readCompanionConfig({ ...production, DATABASE_URL: 'postgres://db/shop', PAYFORM_DATABASE_URL: 'postgres://db/payform' }).databaseUrl).toBe('postgres://db/payform');
    expect(readCompanionConfig({ GATEWAY_API_KEY: 'other-provider', GATEWAY_BASE_URL: 'https://other.example', DATABASE_URL: 'postgres://db/shop' }).databaseUrl).not.toBe('postgres://db/shop');
  });

  it('leaves a shop’s own DATABASE_URL, HOST, PUBLIC_URL and LOG_LEVEL alone when nothing says the environment is payform 0.2’s', () => {
    const settings = readCompanionConfig({ DATABASE_URL: 'postgres://shop@db/shop', HOST: '0.0.0.0', PUBLIC_URL: '/static', LOG_LEVEL: 'trace' });
    expect(settings).toMatchObject({ host: undefined, publicUrlDerived: true, logLevel: 'info' });
    expect(settings.databaseUrl).not.toBe('postgres://shop@db/shop');
    expect(settings.deprecations).toEqual([]);
    expect(leftAloneNotice(settings.leftAlone)).toBe(
      "HOST, PUBLIC_URL, DATABASE_URL, LOG_LEVEL are set and left alone, as the shop's own: the companion reads PAYFORM_HOST, PAYFORM_PUBLIC_URL, PAYFORM_DATABASE_URL, PAYFORM_LOG_LEVEL (set those if meant for payform)",
    );
  });

  it('leaves a shop\'s own variables alone: DATABASE_URL is the shop\'s once PAYFORM_DATABASE_URL is set', () => {
    expect(readCompanionConfig({ DATABASE_URL: 'postgres://shop@db/shop', PAYFORM_DATABASE_URL: './payform.db' }).databaseUrl).toBe('./payform.db');
  });

  it('names every wrong variable at once, never echoing a secret', () => {
    const attempt = () => readCompanionConfig({ PORT: 'eighty', PAYFORM_PUBLIC_URL: 'ftp://x', PAYFORM_ADMIN_TOKEN: 'short-secret', PAYFORM_TRUST_PROXY: 'maybe', PAYFORM_LOG_LEVEL: 'loud', PAYFORM_GATEWAY_POS_ID: 'not-a-uuid' });
    expect(attempt).toThrow(TypeError);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['PORT', 'PAYFORM_PUBLIC_URL', 'PAYFORM_ADMIN_TOKEN', 'PAYFORM_TRUST_PROXY', 'PAYFORM_LOG_LEVEL']) expect(message).toContain(name);
    expect(message).toContain('PAYFORM_GATEWAY_POS_ID: must be a UUID');
    expect(message).not.toContain('short-secret');
  });

  it('refuses an address with a query, fragment or credentials, and a gateway given with /api/v1', () => {
    const cases = [
      ['PAYFORM_PUBLIC_URL', 'https://shop.example/?shop=1', 'must have no query'],
      ['PAYFORM_PUBLIC_URL', 'https://shop.example/pay#top', 'must have no fragment'],
      ['PAYFORM_PUBLIC_URL', 'https://user:pw@shop.example', 'must have no credentials'],
      ['PAYFORM_GATEWAY_WIDGET_URL', 'https://widget.gateway.example/?v=2', 'must have no query'],
      ['PAYFORM_GATEWAY_BASE_URL', 'https://api.gateway.example/api/v1/', 'must be the gateway’s address without /api/v1'],
    ];
    for (const [name, value, reason] of cases) {
      expect(() => readCompanionConfig({ PAYFORM_GATEWAY_WIDGET_KEY: 'wk', [name!]: value }), value).toThrow(new RegExp(`${name}: ${reason}`));
    }
    expect(readCompanionConfig({ PAYFORM_PUBLIC_URL: 'https://shop.example/payments/' }).publicUrl).toBe('https://shop.example/payments');
  });

  it('warns once of a misspelt variable, naming the one it reads like, and leaves other payform programs’ names alone', () => {
    const { warnings } = readCompanionConfig({ PAYFORM_ADMINTOKEN: 'x', PAYFORM_DATABSE_URL: 'x', PAYFORM_GATEWAY_APIKEY: 'x', PAYFORM_E2E_WORKERS: '2', PAYFORM_LOG_FILE: '/tmp/log' });
    expect(warnings).toEqual([
      'PAYFORM_ADMINTOKEN is not a variable of the companion and is ignored: did you mean PAYFORM_ADMIN_TOKEN?',
      'PAYFORM_DATABSE_URL is not a variable of the companion and is ignored: did you mean PAYFORM_DATABASE_URL?',
      'PAYFORM_GATEWAY_APIKEY is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_API_KEY?',
    ]);
    // Cut short, or a name people guess.
    expect(readCompanionConfig({ PAYFORM_SESSION_TTL: '600', PAYFORM_DB_URL: 'x', PAYFORM_WEBHOOK_SECRET: 'x', PAYFORM_PORT: '8080' }).warnings).toEqual([
      'PAYFORM_SESSION_TTL is not a variable of the companion and is ignored: did you mean PAYFORM_SESSION_TTL_SECONDS?',
      'PAYFORM_DB_URL is not a variable of the companion and is ignored: did you mean PAYFORM_DATABASE_URL?',
      'PAYFORM_WEBHOOK_SECRET is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_API_SECRET?',
      // Spelt one letter away from PAYFORM_HOST, but a port is what it means.
      'PAYFORM_PORT is not a variable of the companion and is ignored: did you mean PORT?',
    ]);
    // The sandbox's, with the companion's prefix: the sandbox says the same. Not PORT.
    expect(readCompanionConfig({ PAYFORM_SANDBOX_PORT: '3001', PAYFORM_SANDBOX_HOST: '0.0.0.0', PAYFORM_SANDBOX_URL: 'http://localhost:3001' }).warnings).toEqual([
      'PAYFORM_SANDBOX_PORT is not a variable of the companion and is ignored: did you mean SANDBOX_PORT?',
      'PAYFORM_SANDBOX_HOST is not a variable of the companion and is ignored: did you mean SANDBOX_HOST?',
      'PAYFORM_SANDBOX_URL is not a variable of the companion and is ignored: did you mean PAYFORM_SANDBOX_ORIGIN?',
    ]);
  });

  it('warns of every PAYFORM_ variable no payform program reads, in any case, naming those that share its words', () => {
    // Too many letters from any variable to be a misspelling, each was ignored without a word.
    const { warnings } = readCompanionConfig({ PAYFORM_GATWAY_URL: 'x', PAYFORM_GATEWAY_URL: 'x', PAYFORM_WIDGET_KEY: 'wk', PAYFORM_GATEWAY_SECRET: 'x', payform_public_url: 'https://shop.example' });
    expect(warnings).toEqual([
      'PAYFORM_GATWAY_URL is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_BASE_URL or PAYFORM_GATEWAY_WIDGET_URL?',
      'PAYFORM_GATEWAY_URL is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_BASE_URL or PAYFORM_GATEWAY_WIDGET_URL?',
      // Else the companion relays card data, a widget key set.
      'PAYFORM_WIDGET_KEY is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_WIDGET_KEY?',
      'PAYFORM_GATEWAY_SECRET is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_API_SECRET?',
      'payform_public_url is not a variable of the companion and is ignored: did you mean PAYFORM_PUBLIC_URL?',
    ]);
    // Near none: named still. Like too many: no guess among them.
    expect(readCompanionConfig({ PAYFORM_FEATURE_FLAGS: 'x', Payform_Url: 'x' }).warnings).toEqual([
      'PAYFORM_FEATURE_FLAGS is not a variable of the companion and is ignored: no payform program reads it (`payform-companion --help` lists the variables)',
      'Payform_Url is not a variable of the companion and is ignored: no payform program reads it (`payform-companion --help` lists the variables)',
    ]);
    // Other programs' variables (the demo's, the suites', CI's) share the environment; a prefix merely near PAYFORM says nothing unless it reads like one.
    expect(readCompanionConfig({ PAYFORM_DEMO_CARD_ENTRY: 'relay', PAYFORM_E2E_STACKS: '[]', PAYFORM_PREBUILDS: '/tmp', PAYFLOW_PARTNER: 'x', PAYPAL_CLIENT_ID: 'x' }).warnings).toEqual([]);
    // A refusal for a missing variable names the one set that looks meant for it, and only for it.
    expect(() => readCompanionConfig({ NODE_ENV: 'production', PAYFORM_ADMIN_TOKEN: 'k3Jx9vQ2mPz8Lw4Rt7Yb', PAYFORM_GATEWAY_URL: 'https://api.gateway.example' })).toThrow(
      /^Invalid environment: production needs PAYFORM_GATEWAY_BASE_URL, .*; PAYFORM_GATEWAY_URL is set: did you mean PAYFORM_GATEWAY_BASE_URL\?$/,
    );
  });

  it('reads the API secret before a rotation beside the one now, and refuses it alone or as the same', () => {
    expect(readCompanionConfig({ ...LIVE_GATEWAY, PAYFORM_GATEWAY_API_SECRET_PREVIOUS: 'the-api-secret-before-rotation!' }).previousApiSecret).toBe('the-api-secret-before-rotation!');
    expect(readCompanionConfig({}).previousApiSecret).toBeUndefined();
    expect(() => readCompanionConfig({ PAYFORM_GATEWAY_API_SECRET_PREVIOUS: 'the-api-secret-before-rotation!' })).toThrow(
      'Invalid environment: PAYFORM_GATEWAY_API_SECRET_PREVIOUS needs PAYFORM_GATEWAY_API_SECRET',
    );
    // The receiver of payment changes holding it could sign webhooks while the rotation lasts.
    expect(() =>
      readCompanionConfig({ ...LIVE_GATEWAY, PAYFORM_GATEWAY_API_SECRET_PREVIOUS: 'p'.repeat(40), PAYFORM_NOTIFY_URL: 'https://shop.example/payform', PAYFORM_NOTIFY_SECRET: 'p'.repeat(40) }),
    ).toThrow(/PAYFORM_NOTIFY_SECRET must differ from PAYFORM_GATEWAY_API_SECRET_PREVIOUS/);
    expect(() => readCompanionConfig({ ...LIVE_GATEWAY, PAYFORM_GATEWAY_API_SECRET_PREVIOUS: LIVE_GATEWAY.PAYFORM_GATEWAY_API_SECRET })).toThrow(
      'Invalid environment: PAYFORM_GATEWAY_API_SECRET_PREVIOUS is PAYFORM_GATEWAY_API_SECRET itself: give it the secret before the rotation, or remove it',
    );
  });

  it('names a misspelt variable in a refusal too, and a typo in the prefix', () => {
    const production = { ...LIVE_GATEWAY, NODE_ENV: 'production', PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_DATABASE_URL: 'postgres://payform@db/payform' };
    expect(() => readCompanionConfig({ ...production, PAYFORM_ADMINTOKEN: 'k3Jx9vQ2mPz8Lw4Rt7Yb' })).toThrow(
      'Invalid environment: production needs PAYFORM_ADMIN_TOKEN; PAYFORM_ADMINTOKEN is set: did you mean PAYFORM_ADMIN_TOKEN?',
    );
    // Misspelt variables the refusal does not name are said in it too, not on the start after it.
    expect(() => readCompanionConfig({ PAYFORM_GATEWAY_BASE_URL: '127.0.0.1:43023', PAYFORM_GATEWAY_APISECRET: 'x', PAYFORM_DATABSE_URL: 'y' })).toThrow(
      'Invalid environment: PAYFORM_GATEWAY_BASE_URL: must be an http(s) URL' +
        '; PAYFORM_GATEWAY_APISECRET is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_API_SECRET?' +
        '; PAYFORM_DATABSE_URL is not a variable of the companion and is ignored: did you mean PAYFORM_DATABASE_URL?',
    );
    // A name inside one the refusal names is not that one.
    expect(() => readCompanionConfig({ PAYFORM_NOTIFY_URL: 'https://shop.example/payform', PAYFORM_NOTIFY_SECRET: 'n'.repeat(40), PAYFORM_NOTIFY: 'x' })).toThrow(
      /^Invalid environment: PAYFORM_NOTIFY_SECRET: is easy to guess.*; PAYFORM_NOTIFY is not a variable of the companion and is ignored: did you mean PAYFORM_NOTIFY_URL\?$/,
    );
    expect(readCompanionConfig({ PAYFROM_ADMIN_TOKEN: 'x', PAYPAL_CLIENT_ID: 'x' }).warnings).toEqual([
      'PAYFROM_ADMIN_TOKEN is not a variable of the companion and is ignored: did you mean PAYFORM_ADMIN_TOKEN?',
    ]);
  });

  it('warns of credentials given in part, naming the ones the sandbox’s published values stand in for', () => {
    const { PAYFORM_GATEWAY_API_SECRET: _secret, ...partial } = LIVE_GATEWAY;
    expect(readCompanionConfig({ ...partial, PAYFORM_GATEWAY_API_SECRET: '' }).warnings).toEqual([
      'PAYFORM_GATEWAY_API_SECRET is unset or empty while PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_ENDPOINTS_KEY are set: ' +
        "the sandbox's published test value stands in, which no real gateway takes — set it to your project's",
    ]);
    expect(readCompanionConfig({ NODE_ENV: 'prod' }).warnings).toEqual([
      'NODE_ENV is "prod": only "production" turns on the production checks and binding to the network; this companion runs as in development',
    ]);
  });

  it('reads a back office path with a trailing slash as the page it is', () => {
    expect(readCompanionConfig({ PAYFORM_BACK_OFFICE: '/admin/' }).backOffice).toEqual({ path: '/admin' });
  });

  it('refuses a host given with its port, scheme or path, naming where each goes', () => {
    expect(() => readCompanionConfig({ PAYFORM_HOST: 'localhost:4200' })).toThrow('PAYFORM_HOST: must be a host name or address without a port: the port is PORT');
    expect(() => readCompanionConfig({ PAYFORM_HOST: '[::1]:4200' })).toThrow('PAYFORM_HOST: must be a host name or address without a port: the port is PORT');
    for (const host of ['http://localhost', 'shop.example/pay']) expect(() => readCompanionConfig({ PAYFORM_HOST: host })).toThrow('PAYFORM_HOST: must be a host name or address alone, without a scheme or path');
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost']) expect(() => readCompanionConfig({ PAYFORM_HOST: host })).not.toThrow();
  });

  it('reads the merchant’s sector, and refuses one the gateway has no rules for, or one set but empty, naming the values', () => {
    expect(readCompanionConfig({ PAYFORM_MERCHANT_SECTOR: 'microfinance' }).merchantSector).toBe('microfinance');
    expect(readCompanionConfig({}).merchantSector).toBeUndefined();
    expect(() => readCompanionConfig({ PAYFORM_MERCHANT_SECTOR: 'MicroFinance' })).toThrow('PAYFORM_MERCHANT_SECTOR: must be microfinance or igaming (the sectors the gateway has extra rules for); leave it unset for any other');
    expect(() => readCompanionConfig({ PAYFORM_MERCHANT_SECTOR: ' ' })).toThrow("PAYFORM_MERCHANT_SECTOR is set but empty: name the project's sector (microfinance or igaming), or remove the variable for any other");
  });

  it('reads the currencies the gateway project takes, and refuses one that is no ISO 4217 code, naming it', () => {
    expect(readCompanionConfig({ PAYFORM_CURRENCIES: 'UAH, EUR,' }).currencies).toEqual(['UAH', 'EUR']);
    expect(readCompanionConfig({}).currencies).toBeUndefined();
    expect(() => readCompanionConfig({ PAYFORM_CURRENCIES: 'UAH,hryvnia' })).toThrow(/PAYFORM_CURRENCIES\[1\]: .*ISO 4217/u);
    expect(() => readCompanionConfig({ PAYFORM_CURRENCIES: ',' })).toThrow('PAYFORM_CURRENCIES: must name at least one currency (leave it unset to take any the gateway does)');
    expect(() => readCompanionConfig({ PAYFORM_CURRENCIES: 'UAH,eur' })).toThrow('PAYFORM_CURRENCIES[1]: must be written in capitals: EUR');
    expect(() => readCompanionConfig({ PAYFORM_CURRENCIES: 'UAH,EUR,UAH' })).toThrow('PAYFORM_CURRENCIES[2]: names UAH twice');
    // Set but blank: a shop that meant to name them, refused rather than read as any.
    expect(() => readCompanionConfig({ PAYFORM_CURRENCIES: '' })).toThrow('PAYFORM_CURRENCIES is set but empty: name the currencies the gateway project takes (UAH,EUR), or remove the variable to open sessions in any');
  });

  it('reads how many days customers’ details are kept, and refuses anything but a whole number of days, saying what to write', () => {
    expect(readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: '30' }).personalDataDays).toBe(30);
    expect(readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: ' 3650 ' }).personalDataDays).toBe(3650);
    expect(readCompanionConfig({}).personalDataDays).toBeUndefined();
    expect(() => readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: '30d' })).toThrow('PAYFORM_PERSONAL_DATA_DAYS: must be a whole number of days from 1 to 3650: write 30');
    expect(() => readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: '30 days' })).toThrow('PAYFORM_PERSONAL_DATA_DAYS: must be a whole number of days from 1 to 3650: write 30');
    expect(() => readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: '0' })).toThrow('PAYFORM_PERSONAL_DATA_DAYS: must be a whole number of days from 1 to 3650 (it is 0, which would erase them at once); leave it unset to keep them until erased on request');
    expect(() => readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: '2592000' })).toThrow('PAYFORM_PERSONAL_DATA_DAYS: must be a whole number of days from 1 to 3650 (it is 2592000)');
    expect(() => readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: '1.5' })).toThrow('PAYFORM_PERSONAL_DATA_DAYS: must be a whole number of days from 1 to 3650 (it is "1.5"); leave it unset');
    // Set but blank: a shop that meant to limit them, refused rather than read as kept for ever.
    expect(() => readCompanionConfig({ PAYFORM_PERSONAL_DATA_DAYS: ' ' })).toThrow('PAYFORM_PERSONAL_DATA_DAYS is set but empty: give the days customers\' details are kept after their order (30), or remove the variable to keep them until erased on request');
    // The option, in code, is refused alike as the companion is made.
    const config = { gatewayApiSecret: 'Qm9yTr8vXw2ZpL5nJc7HdG3sKf6aYe1U', publicUrl: 'https://pay.shop.example', adminToken: 'k3Jx9vQ2mPz8Lw4Rt7Yb', gateway: { timeoutMs: 30_000 } } as CompanionConfig;
    expect(resolveConfig({ ...config, personalDataDays: 90 }).personalDataDays).toBe(90);
    expect(resolveConfig(config).personalDataDays).toBeUndefined();
    const refused = (value: unknown) => () => resolveConfig({ ...config, personalDataDays: value as number });
    expect(refused('30')).toThrow('Invalid companion config: personalDataDays: must be a whole number of days from 1 to 3650: write 30, a number without quotes');
    expect(refused('30d')).toThrow('personalDataDays: must be a whole number of days from 1 to 3650: write 30, a number without quotes');
    expect(refused(0)).toThrow('personalDataDays: must be a whole number of days from 1 to 3650 (it is 0, which would erase them at once)');
    expect(refused(7.5)).toThrow('personalDataDays: must be a whole number of days from 1 to 3650 (it is 7.5)');
    expect(refused(true)).toThrow(/personalDataDays: must be a whole number of days from 1 to 3650, not /);
  });

  it('warns of an over-capture allowance written as a share, not a percentage', () => {
    expect(readCompanionConfig({ PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0.15' }).warnings).toEqual([
      'PAYFORM_CAPTURE_OVER_RESERVE_PERCENT is 0.15, a percentage: captures may take 0.15 % over the reserve, not 15 %; if the project allows 15 %, set it to 15',
    ]);
    for (const percent of ['0', '1', '15', '7.5']) expect(readCompanionConfig({ PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: percent }).warnings).toEqual([]);
    // Written with its sign, as a person writes a percentage: the refusal says to leave it out.
    expect(() => readCompanionConfig({ PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '15%' })).toThrow('PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: must be a number of percent, without the % sign (15 for 15 %)');
  });

  it('refuses credentials no header can carry, naming the variable and quoting none', () => {
    expect(() => readCompanionConfig({ ...LIVE_GATEWAY, PAYFORM_GATEWAY_API_SECRET: 'sécret', PAYFORM_GATEWAY_API_KEY: 'live:key' })).toThrow(
      'Invalid environment: PAYFORM_GATEWAY_API_KEY: must not hold a colon: X-API-AUTH sends <key>:<secret>; PAYFORM_GATEWAY_API_SECRET: must hold printable ASCII characters only: a header cannot carry it',
    );
  });

  it('warns of a secret also held in a variable a front-end build puts into its pages, naming both and never the value', () => {
    const token = 'k3Jx9vQ2mPz8Lw4Rt7YbQ1';
    const { warnings } = readCompanionConfig({ ...LIVE_GATEWAY, PAYFORM_ADMIN_TOKEN: token, VITE_PAYFORM_ADMIN_TOKEN: token, NEXT_PUBLIC_SHOP_KEY: LIVE_GATEWAY.PAYFORM_GATEWAY_API_SECRET });
    expect(warnings).toEqual([
      expect.stringMatching(/^PAYFORM_ADMIN_TOKEN's value is also in VITE_PAYFORM_ADMIN_TOKEN, a variable a front-end build puts into the pages it makes: anyone .* refund, void and capture every order.* replace it/),
      expect.stringMatching(/^PAYFORM_GATEWAY_API_SECRET's value is also in NEXT_PUBLIC_SHOP_KEY, /),
    ]);
    expect(warnings.join('\n')).not.toContain(token);
    // A public variable of another value, or a server-only one of the same, is no leak.
    expect(readCompanionConfig({ ...LIVE_GATEWAY, PAYFORM_ADMIN_TOKEN: token, VITE_PAYFORM_ADMIN_TOKEN: 'something-else-entirely', SHOP_ADMIN_TOKEN: token }).warnings).toEqual([]);
  });

  it("does not warn of the sandbox's published test credentials in a front-end variable: they are public, and no real gateway takes them", () => {
    const { apiKey, apiSecret, endpointsKey, posId } = TEST_PROJECT_DEFAULTS;
    const sandbox = { PAYFORM_GATEWAY_POS_ID: posId, PAYFORM_GATEWAY_API_KEY: apiKey, PAYFORM_GATEWAY_API_SECRET: apiSecret, PAYFORM_GATEWAY_ENDPOINTS_KEY: endpointsKey };
    expect(readCompanionConfig({ ...sandbox, VITE_GATEWAY_API_SECRET: apiSecret, NEXT_PUBLIC_ENDPOINTS_KEY: endpointsKey }).warnings).toEqual([]);
  });

  it('warns when a gateway not on this machine is given without credentials: the sandbox’s test project would be sent to it', () => {
    const [warning, ...more] = readCompanionConfig({ PAYFORM_GATEWAY_BASE_URL: 'https://api.gateway.example' }).warnings;
    expect(more).toEqual([]);
    expect(warning).toMatch(/^PAYFORM_GATEWAY_BASE_URL is https:\/\/api\.gateway\.example, but the credentials are the sandbox's published test project/);
    expect(warning).toContain('PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_API_SECRET, PAYFORM_GATEWAY_ENDPOINTS_KEY');
    for (const local of ['http://127.0.0.1:3001', 'http://localhost:3001']) expect(readCompanionConfig({ PAYFORM_GATEWAY_BASE_URL: local }).warnings).toEqual([]);
    expect(readCompanionConfig(LIVE_GATEWAY).warnings).toEqual([]);
  });

  it('warns when development on the test credentials listens beyond this machine, where anyone could sign webhooks', () => {
    for (const host of ['0.0.0.0', '192.168.1.20']) {
      expect(readCompanionConfig({ PAYFORM_HOST: host }).warnings).toEqual([expect.stringMatching(new RegExp(`^PAYFORM_HOST is "${host.replaceAll('.', '\\.')}": the companion is reachable from the network`))]);
    }
    for (const quiet of [{ PAYFORM_HOST: '127.0.0.1' }, { PAYFORM_HOST: 'localhost' }, {}, { PAYFORM_HOST: '0.0.0.0', ...LIVE_GATEWAY }]) {
      expect(readCompanionConfig(quiet).warnings, JSON.stringify(quiet)).toEqual([]);
    }
  });

  it('refuses PAYFORM_DATABASE_URL set but empty, as a secret that failed to inject would leave it, naming the default file', () => {
    // Read as unset, it gave one instance of a PostgreSQL fleet a private SQLite ledger of its own.
    const refusal = (name: string) => `${name} is set but empty: give the database's URL, or remove the variable for the default SQLite file (${resolve('data', 'payform.db')})`;
    for (const blank of ['', '  ']) {
      expect(() => readCompanionConfig({ PAYFORM_DATABASE_URL: blank })).toThrow(new TypeError(`Invalid environment: ${refusal('PAYFORM_DATABASE_URL')}`));
      const production = { ...LIVE_GATEWAY, NODE_ENV: 'production', PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_ADMIN_TOKEN: 'k3Jx9vQ2mPz8Lw4Rt7Yb' };
      expect(() => readCompanionConfig({ ...production, PAYFORM_DATABASE_URL: blank })).toThrow(refusal('PAYFORM_DATABASE_URL'));
    }
    // With every other wrong variable, at once.
    expect(() => readCompanionConfig({ PAYFORM_DATABASE_URL: '', PORT: 'eighty' })).toThrow(`Invalid environment: ${refusal('PAYFORM_DATABASE_URL')}; PORT: must be a port number`);
    // Its 0.2 name where it would be read (beside a name only payform used), not where it is the shop's own or not read.
    expect(() => readCompanionConfig({ SESSION_TTL_SECONDS: '900', DATABASE_URL: ' ' })).toThrow(`Invalid environment: ${refusal('DATABASE_URL')}`);
    expect(readCompanionConfig({ DATABASE_URL: '' }).databaseUrl).toBe('./data/payform.db');
    expect(readCompanionConfig({ SESSION_TTL_SECONDS: '900', DATABASE_URL: '', PAYFORM_DATABASE_URL: './payform.db' }).databaseUrl).toBe('./payform.db');
    // Unset is the default file, and another variable left blank is unset as before.
    expect(readCompanionConfig({}).databaseUrl).toBe('./data/payform.db');
    expect(readCompanionConfig({ PAYFORM_PUBLIC_URL: '', PAYFORM_ADMIN_TOKEN: ' ', PAYFORM_LOG_LEVEL: '' })).toMatchObject({ publicUrlDerived: true, adminTokenGenerated: true, logLevel: 'info' });
  });

  it('refuses a file: or sqlite: URL for the database, naming the variable and the fix', () => {
    for (const url of ['file:./data/payform.db', 'sqlite:///var/lib/payform.db']) {
      expect(() => readCompanionConfig({ PAYFORM_DATABASE_URL: url })).toThrow(/PAYFORM_DATABASE_URL.*URL is not read: give a postgres:\/\/ URL, or the SQLite file's path itself/);
    }
  });

  it('refuses a PostgreSQL URL whose password is not encoded, saying how, without showing it', () => {
    const read = () => readCompanionConfig({ PAYFORM_DATABASE_URL: 'postgres://shop:S3cr#t@127.0.0.1:5432/shop' });
    expect(read).toThrow(/PAYFORM_DATABASE_URL: is not a URL that can be read as written: percent-encode special characters of the user name and password \(# as %23/);
    expect(read).not.toThrow(/S3cr/);
  });

  it('takes the back office’s sellers as id=name pairs, naming each wrong one by its place', () => {
    const roasters = '3F0C2A1E-7B4D-4C8E-9A6F-1D2E3B4C5D6E';
    const ceramics = '9a1d4b2c-3e5f-4a6b-8c7d-0e1f2a3b4c5d';
    expect(readCompanionConfig({ PAYFORM_BACK_OFFICE: '/admin', PAYFORM_BACK_OFFICE_SELLERS: ` ${roasters}=Kavarnia Roasters , ${ceramics}=Kosiv = Ceramics,` }).backOffice).toEqual({
      path: '/admin',
      subMerchants: [
        { id: roasters.toLowerCase(), name: 'Kavarnia Roasters' },
        { id: ceramics, name: 'Kosiv = Ceramics' },
      ],
    });
    expect(readCompanionConfig({ PAYFORM_BACK_OFFICE: '/admin' }).backOffice).toEqual({ path: '/admin' });
    const refusal = (sellers: string) => () => readCompanionConfig({ PAYFORM_BACK_OFFICE: '/admin', PAYFORM_BACK_OFFICE_SELLERS: sellers });
    expect(refusal(`${roasters}=Roasters,roasters=Kosiv,${ceramics}`)).toThrow(
      /PAYFORM_BACK_OFFICE_SELLERS: seller 2's id "roasters" must be a UUID, the gateway's sub-merchant id; PAYFORM_BACK_OFFICE_SELLERS: seller 3 \("9a1d[^"]*"\) must be id=name/,
    );
    expect(refusal(`${roasters}=Roasters,${roasters.toLowerCase()}=Again`)).toThrow(/seller 2's id 3f0c[^ ]* is named twice/);
    expect(refusal(' , ')).toThrow(/PAYFORM_BACK_OFFICE_SELLERS: must be id=name pairs separated by commas/);
    // Pairs separated by another character read as one seller whose name holds the next pair.
    expect(refusal(`${roasters}=Roasters; ${ceramics}=Ceramics`)).toThrow(
      new RegExp(`PAYFORM_BACK_OFFICE_SELLERS: seller 1's name "Roasters; ${ceramics}=Ceramics" holds another id=name pair: separate the pairs with commas`),
    );
    expect(() => readCompanionConfig({ PAYFORM_BACK_OFFICE_SELLERS: `${roasters}=Roasters` })).toThrow(/PAYFORM_BACK_OFFICE_SELLERS needs PAYFORM_BACK_OFFICE/);
    // Both wrongs at once, in one refusal: a start for each would make a deployment a loop.
    expect(() => readCompanionConfig({ PAYFORM_BACK_OFFICE_SELLERS: 'abc=Shop' })).toThrow(
      /seller 1's id "abc" must be a UUID.*; PAYFORM_BACK_OFFICE_SELLERS needs PAYFORM_BACK_OFFICE/,
    );
  });

  it('takes a PostgreSQL statement deadline, refusing one too short to answer anything, and says it does nothing on SQLite', () => {
    const postgres = { PAYFORM_DATABASE_URL: 'postgres://shop@db/payform' };
    expect(readCompanionConfig(postgres).databaseStatementTimeoutMs).toBeUndefined();
    expect(readCompanionConfig({ ...postgres, PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS: '30000' })).toMatchObject({ databaseStatementTimeoutMs: 30_000, warnings: [] });
    // No limit is taken, and its cost said: a stalled connection holds a request, and a stop, for hours.
    expect(readCompanionConfig({ ...postgres, PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toMatchObject({
      databaseStatementTimeoutMs: 0,
      warnings: [expect.stringMatching(/^PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS is 0, no limit: .* holds its request, and a stop, until the operating system gives the connection up.*set it above the longest report instead/)],
    });
    for (const wrong of ['50', '5s', '-1', '3600001']) {
      expect(() => readCompanionConfig({ ...postgres, PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS: wrong })).toThrow(/PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS.*(must be 0 \(no limit\) or 100 to 3600000 milliseconds|must be a number of milliseconds)/);
    }
    expect(readCompanionConfig({ PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS: '30000' }).warnings).toEqual([
      'PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS applies to a PostgreSQL ledger and is ignored: PAYFORM_DATABASE_URL is a SQLite file',
    ]);
  });

  it('in production requires a real admin token, gateway and credentials', () => {
    expect(() => readCompanionConfig({ NODE_ENV: 'production' })).toThrow(
      'production needs PAYFORM_ADMIN_TOKEN, PAYFORM_GATEWAY_BASE_URL, PAYFORM_DATABASE_URL, PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_API_SECRET, PAYFORM_GATEWAY_ENDPOINTS_KEY ' +
        `(PAYFORM_DATABASE_URL: a postgres:// URL, or the SQLite file's path, e.g. ${resolve('data/payform.db')}); ` +
        'run by the payform-companion bin, it also needs PAYFORM_PUBLIC_URL',
    );
    // Given, it is not named.
    expect(() => readCompanionConfig({ NODE_ENV: 'production', PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_DATABASE_URL: './payform.db' })).toThrow(/PAYFORM_GATEWAY_ENDPOINTS_KEY$/);
  });

  it('names every wrong variable in one refusal, production\'s and quoted ones with the rest', () => {
    const refusal = (() => {
      try {
        readCompanionConfig({
          ...LIVE_GATEWAY, NODE_ENV: 'production', PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_DATABASE_URL: 'postgres://payform@db/payform',
          PAYFORM_SESSION_TTL_SECONDS: '5', PAYFORM_LOG_LEVEL: 'verbose', PAYFORM_SANDBOX_ORIGIN: 'http://localhost:3001',
          PAYFORM_GATEWAY_API_KEY: 'sandbox-test-api-key', PAYFORM_ADMIN_TOKEN: '"k3Jx9vQ2mPz8Lw4Rt7Yb"',
        });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    for (const named of ['PAYFORM_SESSION_TTL_SECONDS', 'PAYFORM_LOG_LEVEL', 'PAYFORM_SANDBOX_ORIGIN must not be set in production', 'production needs PAYFORM_GATEWAY_API_KEY', 'PAYFORM_ADMIN_TOKEN is wrapped in quotes']) {
      expect(refusal, named).toContain(named);
    }
    expect(refusal).not.toContain('k3Jx9vQ2mPz8Lw4Rt7Yb');
    // Quotes are refused anywhere, and a value that only holds one is left alone.
    // The ledger's URL refuses quotes by its own rule: named once.
    expect(() => readCompanionConfig({ PAYFORM_DATABASE_URL: "'postgres://payform@db/payform'" })).toThrow(/^Invalid environment: PAYFORM_DATABASE_URL: starts with a quote, which a \.env file for containers \(docker --env-file, kubectl\) keeps as part of the value: remove the quotes$/);
    expect(() => readCompanionConfig({ PAYFORM_GATEWAY_API_SECRET: '"a-secret-of-the-project"' })).toThrow(/^Invalid environment: PAYFORM_GATEWAY_API_SECRET is wrapped in quotes/);
    expect(readCompanionConfig({ PAYFORM_ADMIN_TOKEN: 'k3Jx9vQ2"mPz8Lw4Rt7Yb' }).adminToken).toBe('k3Jx9vQ2"mPz8Lw4Rt7Yb');
  });

  it('names the quotes, not the rule they break, of a quoted port, address or level', () => {
    // docker --env-file keeps PORT="3000" as the five characters "3000" with its quotes.
    const refusal = (env: Record<string, string>) => {
      try {
        readCompanionConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    const quotes = (name: string) => `${name} is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them`;
    expect(refusal({ PORT: '"3000"' })).toBe(`Invalid environment: ${quotes('PORT')}`);
    expect(refusal({ PAYFORM_PUBLIC_URL: '"https://pay.shop.example"', PAYFORM_LOG_LEVEL: "'info'", PAYFORM_SESSION_TTL_SECONDS: '5' })).toBe(
      `Invalid environment: PAYFORM_SESSION_TTL_SECONDS: must be at least 60; ${quotes('PAYFORM_PUBLIC_URL')}; ${quotes('PAYFORM_LOG_LEVEL')}`,
    );
    expect(refusal({ PAYFORM_ALLOWED_ORIGINS: '"https://shop.example"' })).toBe(`Invalid environment: ${quotes('PAYFORM_ALLOWED_ORIGINS')}`);
  });

  it('warns that test mode in production shows customers the test cards', () => {
    const live = { ...LIVE_GATEWAY, NODE_ENV: 'production', PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_DATABASE_URL: 'postgres://payform@db/payform', PAYFORM_ADMIN_TOKEN: 'k3Jx9vQ2mPz8Lw4Rt7Yb' };
    expect(readCompanionConfig({ ...live, PAYFORM_TEST_MODE: 'true' }).warnings).toEqual([expect.stringMatching(/^PAYFORM_TEST_MODE is on in production: customers see the test banner and the test cards/)]);
    expect(readCompanionConfig(live).warnings).toEqual([]);
  });

  describe('in production', () => {
    const live = { NODE_ENV: 'production', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: 'postgres://payform@db/payform', ...LIVE_GATEWAY };

    it('starts with its own credentials', () => {
      expect(readCompanionConfig(live)).toMatchObject({ testMode: false, sandboxOrigin: undefined, production: true });
    });

    it('refuses any one credential left at the test project\'s value', () => {
      for (const [name, value] of Object.entries(TEST_PROJECT_DEFAULTS)) {
        const variable = `PAYFORM_GATEWAY_${name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
        expect(() => readCompanionConfig({ ...live, [variable]: value }), variable).toThrow(
          `Invalid environment: production needs ${variable} (${variable} is the sandbox's published test value: production takes your gateway project's own; on the sandbox, run without NODE_ENV=production (under a framework's production server that sets it, such as \`next start\`: readCompanionConfig({ ...process.env, NODE_ENV: 'development' })))`,
        );
      }
    });

    it('refuses an admin token that is long enough but easy to guess', () => {
      expect(() => readCompanionConfig({ ...live, PAYFORM_ADMIN_TOKEN: 'aaaaaaaaaaaaaaaa' })).toThrow(
        'Invalid environment: PAYFORM_ADMIN_TOKEN is easy to guess (a few characters, repeated): use a random one, e.g. the output of `openssl rand -base64 32`',
      );
      for (const word of ['password12345678', 'changeme-changeme', 'Password123456789', 'P@ssw0rd-2026-11-30', 'admin-token-1234567']) {
        expect(() => readCompanionConfig({ ...live, PAYFORM_ADMIN_TOKEN: word }), word).toThrow(
          'Invalid environment: PAYFORM_ADMIN_TOKEN is easy to guess (a common word, with digits or marks): use a random one, e.g. the output of `openssl rand -base64 32`',
        );
      }
      expect(readCompanionConfig({ ...live, PAYFORM_ADMIN_TOKEN: 'q8Vz3kLw0PxN7rTb' }).production).toBe(true);
    });

    it('refuses a plain-http gateway or public URL, which would carry the credentials, cards and session ids in clear', () => {
      expect(() => readCompanionConfig({ ...live, PAYFORM_GATEWAY_BASE_URL: 'http://gateway.example', PAYFORM_PUBLIC_URL: 'http://pay.shop.example' })).toThrow(
        'Invalid environment: production needs https for PAYFORM_GATEWAY_BASE_URL and PAYFORM_PUBLIC_URL (plain http only to this machine): ' +
          'PAYFORM_GATEWAY_BASE_URL is http://gateway.example, PAYFORM_PUBLIC_URL is http://pay.shop.example',
      );
      expect(() => readCompanionConfig({ ...live, PAYFORM_PUBLIC_URL: 'http://pay.shop.example' })).toThrow(/production needs https for PAYFORM_PUBLIC_URL \(/);
      // To this machine (a local proxy that holds the TLS), plain http is no exposure.
      expect(readCompanionConfig({ ...live, PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:8443', PAYFORM_PUBLIC_URL: 'https://pay.shop.example' }).production).toBe(true);
    });

    it('refuses a plain-http page among the allowed origins, where the card is typed and the session id kept', () => {
      expect(() => readCompanionConfig({ ...live, PAYFORM_ALLOWED_ORIGINS: 'https://shop.example, http://shop-plain.example,http://10.0.0.7:8080' })).toThrow(
        'Invalid environment: production needs https for PAYFORM_ALLOWED_ORIGINS (plain http only to this machine): PAYFORM_ALLOWED_ORIGINS has http://shop-plain.example,http://10.0.0.7:8080',
      );
      expect(readCompanionConfig({ ...live, PAYFORM_ALLOWED_ORIGINS: 'https://shop.example,http://localhost:5173' }).allowedOrigins).toEqual(['https://shop.example', 'http://localhost:5173']);
      // Development takes it: a phone on the developer's network.
      expect(readCompanionConfig({ PAYFORM_ALLOWED_ORIGINS: 'http://192.168.1.20:5173' }).allowedOrigins).toEqual(['http://192.168.1.20:5173']);
    });

    it('refuses an admin token, or a notification secret, that is another secret too', () => {
      // Checked as the companion is made, mounted or started by the bin.
      const config = { gatewayApiSecret: 'Qm9yTr8vXw2ZpL5nJc7HdG3sKf6aYe1U', publicUrl: 'https://pay.shop.example', adminToken: 'Qm9yTr8vXw2ZpL5nJc7HdG3sKf6aYe1U', gateway: { timeoutMs: 30_000 } } as CompanionConfig;
      expect(() => resolveConfig(config)).toThrow(
        'Invalid companion config: gatewayApiSecret (PAYFORM_GATEWAY_API_SECRET) must differ from adminToken (PAYFORM_ADMIN_TOKEN): give each its own random value',
      );
      expect(resolveConfig({ ...config, adminToken: 'k3Jx9vQ2mPz8Lw4Rt7Yb' }).adminToken).toBe('k3Jx9vQ2mPz8Lw4Rt7Yb');
      const secret = 'n0tify-Secret-0123456789abcdefXYZ!';
      expect(() => readCompanionConfig({ ...live, PAYFORM_ADMIN_TOKEN: secret, PAYFORM_NOTIFY_URL: 'https://shop.example/in', PAYFORM_NOTIFY_SECRET: secret })).toThrow(
        'PAYFORM_NOTIFY_SECRET must differ from PAYFORM_ADMIN_TOKEN: the receiver keeps it, so give it its own random value (e.g. `openssl rand -hex 32`)',
      );
      expect(readCompanionConfig({ ...live, PAYFORM_NOTIFY_URL: 'https://shop.example/in', PAYFORM_NOTIFY_SECRET: secret }).notify).toEqual({ url: 'https://shop.example/in', secret });
    });

    it('refuses a ledger in memory, which forgets every payment as the process stops', () => {
      expect(() => readCompanionConfig({ ...live, PAYFORM_DATABASE_URL: ':memory:' })).toThrow(
        'Invalid environment: PAYFORM_DATABASE_URL is :memory: in production, where every payment would be forgotten as the process stops: give a postgres:// URL or a SQLite file path',
      );
      expect(readCompanionConfig({ ...live, NODE_ENV: 'development', PAYFORM_DATABASE_URL: ':memory:' }).databaseUrl).toBe(':memory:');
    });

    it('refuses PAYFORM_SANDBOX_ORIGIN, which lets browsers be sent to a plain-http address', () => {
      expect(() => readCompanionConfig({ ...live, PAYFORM_SANDBOX_ORIGIN: 'http://localhost:3001' })).toThrow(
        'Invalid environment: PAYFORM_SANDBOX_ORIGIN must not be set in production',
      );
    });
  });
});

describe('createCompanion config', () => {
  it('refuses wrong settings naming them, without the token', async () => {
    const ledger = await openLedger(':memory:');
    const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:1', ...TEST_PROJECT_DEFAULTS });
    const base = { ledger, gateway, gatewayApiSecret: TEST_PROJECT_DEFAULTS.apiSecret, publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token' };
    expect(() => createCompanion({ ...base, adminToken: 'tiny-token' })).toThrow(/adminToken: must be at least 16 characters/);
    // A token no HTTP client can send after `Bearer `: every merchant request would be 401, nothing said.
    for (const [token, what] of [['correct horse battery staple', 'character 8 is a space'], ['€uro-token-0123456789', 'character 1 is a character outside ASCII'], ['tab\tseparated-admin-token', 'character 4 is a space']] as const) {
      const refusal = (() => {
        try {
          createCompanion({ ...base, adminToken: token });
        } catch (error) {
          return (error as Error).message;
        }
        return 'accepted';
      })();
      expect(refusal).toContain(`adminToken: must be one word of visible ASCII characters, as an Authorization header carries it: ${what}`);
      expect(refusal).not.toContain(token);
    }
    expect(() => createCompanion({ ...base, metricsToken: 'metrics token with spaces' })).toThrow(/metricsToken: must be one word of visible ASCII characters.*character 8 is a space/);
    expect(() => createCompanion({ ...base, publicUrl: 'localhost' })).toThrow(/publicUrl/);
    // Nothing stands in for the token or the public URL of an app made by hand either.
    expect(() => createCompanion({ ...base, adminToken: undefined as never })).toThrow(/adminToken: is required/);
    expect(() => createCompanion({ ...base, publicUrl: undefined as never })).toThrow(/publicUrl: (is required|must be an http\(s\) URL)/);
    expect(() => createCompanion({ ...base, allowedOrigins: ['https://shop.example/path'] })).toThrow(/allowedOrigins\[0\]: must be an origin/);
    expect(() => createCompanion({ ...base, sandboxOrigin: 'http://localhost:3001/?x' })).toThrow(/sandboxOrigin: must be an origin .* give http:\/\/localhost:3001 /);
    expect(() => createCompanion({ ...base, rateLimits: { perSession: 0 } })).toThrow(/rateLimits.perSession/);
    // A misspelt option is named, with the one it reads like: dropped, a hook would never be called.
    expect(() => createCompanion({ ...base, onPaymentEvents: () => undefined, basepath: '/payments' } as never)).toThrow(
      'Invalid companion config: onPaymentEvents is not an option (did you mean onPaymentEvent?); basepath is not an option (did you mean basePath?)',
    );
    expect(() => createCompanion({ ...base, rateLimits: { perSesion: 5 } } as never)).toThrow(/rateLimits.perSesion/);
    try {
      createCompanion({ ...base, adminToken: 'tiny-token' });
    } catch (error) {
      expect((error as Error).message).not.toContain('tiny-token');
    }
    expect(createCompanion(base).companion.services.options).toMatchObject({ publicUrl: 'http://localhost:3000', captureOverReservePercent: 0, testMode: false });
    await ledger.close();
  });

  it('refuses card schemes the widget does not know by those ids, saying which was meant (the widget would refuse every card)', async () => {
    const ledger = await openLedger(':memory:');
    const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:1', ...TEST_PROJECT_DEFAULTS });
    const base = { ledger, gateway, gatewayApiSecret: TEST_PROJECT_DEFAULTS.apiSecret, publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token' };
    const ids = 'visa, mastercard, amex, discover, diners, jcb, unionpay, maestro, mir, prostir';
    expect(() => createCompanion({ ...base, acceptedBrands: ['Visa', 'American Express', 'mastercrd', 'cartebancaire'] })).toThrow(
      `Invalid companion config: acceptedBrands[0]: must be a brand id of the widget (${ids}): "Visa" is visa; ` +
        `acceptedBrands[1]: must be a brand id of the widget (${ids}): "American Express" is amex; ` +
        `acceptedBrands[2]: must be a brand id of the widget (${ids}): "mastercrd" is mastercard; ` +
        `acceptedBrands[3]: must be a brand id of the widget (${ids})`,
    );
    expect(() => createCompanion({ ...base, acceptedBrands: [] })).toThrow(/acceptedBrands: must name at least one brand \(leave it unset to take every brand the widget knows\)/);
    expect(createCompanion({ ...base, acceptedBrands: ['visa', 'amex'] }).companion.services.options.acceptedBrands).toEqual(['visa', 'amex']);
    await ledger.close();
  });

  it('refuses a webhook secret other than the one the gateway client calls with, which signs every webhook', async () => {
    const ledger = await openLedger(':memory:');
    const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:1', ...TEST_PROJECT_DEFAULTS });
    const base = { ledger, gateway, publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token' };
    // Taken, it refused every webhook with a 401, and each payment waited on its read-back.
    expect(() => createCompanion({ ...base, gatewayApiSecret: 'a-secret-of-another-project' })).toThrow(
      new TypeError(
        'Invalid companion config: gatewayApiSecret (PAYFORM_GATEWAY_API_SECRET) is not the apiSecret the gateway client calls with, ' +
          'and the gateway signs its webhooks with that one: every webhook would be refused as forged; give both the project’s API secret',
      ),
    );
    // The new secret with the one before it: as a rotation sets them.
    const rotated = createCompanion({ ...base, gatewayApiSecret: TEST_PROJECT_DEFAULTS.apiSecret, gatewayApiSecretPrevious: 'the-secret-before-rotation' });
    await rotated.companion.stop();
    await ledger.close();
  });

  it('refuses a trustProxy list holding what is no address or network, and a rate window in seconds', async () => {
    const ledger = await openLedger(':memory:');
    const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:1', ...TEST_PROJECT_DEFAULTS });
    const base = { ledger, gateway, gatewayApiSecret: TEST_PROJECT_DEFAULTS.apiSecret, publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token' };
    expect(() => createCompanion({ ...base, trustProxy: ['203.0.113.0/24', 'cdn.example'] })).toThrow(
      'Invalid companion config: trustProxy[1]: is neither private nor an IP address or network (203.0.113.0/24, 2001:db8::/32)',
    );
    // Every peer's word would be taken: no proxy's network is that wide.
    expect(() => createCompanion({ ...base, trustProxy: ['private', '0.0.0.0/0'] })).toThrow('trustProxy[1]: is too wide: no proxy\'s network is wider than a /8 in IPv4');
    expect(() => createCompanion({ ...base, trustProxy: [] })).toThrow('Invalid companion config: trustProxy: must list at least one network, or be true');
    // Seconds given for milliseconds made every limit one no client could reach.
    expect(() => createCompanion({ ...base, rateLimits: { windowMs: 60 } })).toThrow('Invalid companion config: rateLimits.windowMs: must be at least 1000 milliseconds (60000 is a minute)');
  });

  it('refuses a hook or a clock that is not a function, naming it and what it must be', async () => {
    const ledger = await openLedger(':memory:');
    const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:1', ...TEST_PROJECT_DEFAULTS });
    const base = { ledger, gateway, gatewayApiSecret: TEST_PROJECT_DEFAULTS.apiSecret, publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token' };
    // Taken, a hook given as its name failed at every payment ("hook is not a function").
    expect(() => createCompanion({ ...base, onPaymentEvent: 'fulfil' } as never)).toThrow(new TypeError('Invalid companion config: onPaymentEvent: must be a function, not a string'));
    expect(() => createCompanion({ ...base, onPaymentEvent: { fulfil: () => undefined }, clock: 1_700_000_000_000 } as never)).toThrow(
      'Invalid companion config: onPaymentEvent: must be a function, not an object; clock: must be a function, not a number',
    );
    // Named together with a misspelt option.
    expect(() => createCompanion({ ...base, basepath: '/payments', onPaymentEvent: ['fulfil'] } as never)).toThrow(
      'Invalid companion config: basepath is not an option (did you mean basePath?); onPaymentEvent: must be a function, not an array',
    );
    // Null is none, as undefined is.
    expect(() => createCompanion({ ...base, onPaymentEvent: null, clock: undefined } as never)).not.toThrow();
    expect(() => createCompanion({ ...base, onPaymentEvent: async () => undefined, clock: () => 0 })).not.toThrow();
    await ledger.close();
  });

  it('names the ledger and the gateway client when they are not given, and where each comes from', () => {
    const settings = { gatewayApiSecret: 'secret', publicUrl: 'https://shop.example', adminToken: 'a-long-enough-admin-token' };
    const ledger = 'ledger: required, the ledger it records payments in (await openLedger(url), from @payform/companion)';
    const gateway = 'gateway: required, the gateway client (new GatewayClient({ baseUrl, posId, apiKey, apiSecret, endpointsKey }), from @payform/gateway)';
    // It failed with "Cannot read properties of undefined (reading 'timeoutMs')".
    expect(() => createCompanion(settings as never)).toThrow(new TypeError(`Invalid companion config: ${ledger}; ${gateway}`));
    // Given as the URL it is opened from, or as the client's options: named as what they are.
    expect(() => createCompanion({ ...settings, ledger: './data/payform.db', gateway: { baseUrl: 'https://api.gateway.example' } } as never)).toThrow(
      new TypeError(`Invalid companion config: ${ledger}, not a string; ${gateway}, not its options`),
    );
    expect(() => createCompanion(undefined as never)).toThrow(new TypeError('createCompanion(config) takes an object, { ledger, gateway, gatewayApiSecret, publicUrl, adminToken, … }, not nothing'));
  });

  it('names the ledger when the gateway client is right and the ledger left out, or no ledger', () => {
    const gateway = new GatewayClient({ baseUrl: 'https://api.gateway.example', ...TEST_PROJECT_DEFAULTS });
    const settings = { gateway, gatewayApiSecret: TEST_PROJECT_DEFAULTS.apiSecret, publicUrl: 'https://shop.example', adminToken: 'a-long-enough-admin-token' };
    const ledger = 'ledger: required, the ledger it records payments in (await openLedger(url), from @payform/companion)';
    // It failed with "Cannot read properties of undefined (reading 'id')", and an object of other
    // methods only at the first payment.
    expect(() => createCompanion(settings as never)).toThrow(new TypeError(`Invalid companion config: ${ledger}`));
    expect(() => createCompanion({ ...settings, ledger: {} } as never)).toThrow(new TypeError(`Invalid companion config: ${ledger}, not another object (it has no ledger id or dialect)`));
  });
});
