// Settings passed in code, where a value is not always a string; the environment other payform programs share.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { currentEnvironment, SANDBOX_VARIABLES, strayVariables } from './environment.js';
import type { EnvironmentInput } from './environment.js';
import { KNOWN_VARIABLES, readCompanionConfig } from './settings.js';
import { SANDBOX_VARIABLES as SANDBOX_READS } from '../sandbox/environment.js';

/** readCompanionConfig as a merchant's code calls it: its parameter is typed for process.env. */
const readInCode = (environment: EnvironmentInput | Readonly<Record<string, unknown>>) => readCompanionConfig(environment as never);

describe('settings given in code', () => {
  it('reads a number or a boolean as its string form', () => {
    const settings = readInCode({ PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PORT: 4125, PAYFORM_SESSION_TTL_SECONDS: 600, PAYFORM_TRUST_PROXY: true, PAYFORM_TEST_MODE: false });
    expect(settings).toMatchObject({ port: 4125, sessionTtlSeconds: 600, trustProxy: true, testMode: false, adminTokenGenerated: false });
    expect(readInCode({ PORT: 0, PAYFORM_TRUST_PROXY: false, PAYFORM_TEST_MODE: true })).toMatchObject({ port: 0, trustProxy: false, testMode: true });
    // Through a 0.2 name too, and null is unset like a blank.
    expect(currentEnvironment({ GATEWAY_POS_ID: 'p', SESSION_TTL_SECONDS: 900, PAYFORM_GATEWAY_WIDGET_KEY: null }).env).toMatchObject({ PAYFORM_SESSION_TTL_SECONDS: '900', PAYFORM_GATEWAY_WIDGET_KEY: undefined });
  });

  it('reads PAYFORM_TRUST_PROXY as a flag or the networks of public proxies, and refuses anything else naming it', () => {
    expect(readInCode({ PAYFORM_TRUST_PROXY: 'private, 203.0.113.0/24, 2001:db8::/32,198.51.100.7' }).trustProxy).toEqual(['private', '203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    expect(() => readInCode({ PAYFORM_TRUST_PROXY: '203.0.113.0/24,cdn.example' })).toThrow(
      "PAYFORM_TRUST_PROXY: must be true (proxies on this machine or a private network; 1 and yes too), false (0, no), or what to trust, comma-separated: private, and your proxies' addresses or networks " +
        '(private,203.0.113.0/24,2001:db8::/32): "cdn.example" is neither private nor an IP address or network (203.0.113.0/24, 2001:db8::/32)',
    );
    // Each mistake named as what it is: too wide for its family, a port, a flag in a list, a flag mistyped.
    const said = (value: string) => {
      try {
        readInCode({ PAYFORM_TRUST_PROXY: value });
      } catch (error) {
        return (error as Error).message.replace(/^.*\(private,203\.0\.113\.0\/24,2001:db8::\/32\): /, '');
      }
      return expect.fail(`${value} was taken`);
    };
    expect(said('0.0.0.0/0')).toBe('"0.0.0.0/0" is too wide: no proxy\'s network is wider than a /8 in IPv4, and a wider one trusts nearly every peer');
    expect(said('2001:db8::/8')).toBe('"2001:db8::/8" is too wide: no proxy\'s network is wider than a /16 in IPv6, and a wider one trusts nearly every peer');
    expect(said('203.0.113.0/33')).toBe('"203.0.113.0/33" is no network: its prefix is longer than IPv4\'s addresses');
    expect(said('127.0.0.1:4720')).toBe('"127.0.0.1:4720" holds a port: write the address alone (127.0.0.1)');
    expect(said('true,203.0.113.0/24')).toBe('"true" stands alone: in a list, write private for proxies on this machine or a private network');
    expect(said('ture')).toBe('"ture" is no flag: did you mean true?');
    expect(said('private,::ffff:10.0.0.0/104')).toBe('"::ffff:10.0.0.0/104" is an IPv4 address written as IPv6: write 10.0.0.0/8, as peers are compared');
    expect(said('Private')).toBe('"Private": write private, in lower case');
  });

  it('reads PAYFORM_RATE_LIMITS as the rateLimits option, naming each wrong pair', () => {
    expect(readInCode({ PAYFORM_RATE_LIMITS: 'perClient=60, declinesPerClient=40,' }).rateLimits).toEqual({ perClient: 60, declinesPerClient: 40 });
    expect(readInCode({}).rateLimits).toBeUndefined();
    expect(() => readInCode({ PAYFORM_RATE_LIMITS: 'perclient=60,perSession=0,windowMs' })).toThrow(
      'PAYFORM_RATE_LIMITS: "perclient" is no limit (did you mean perClient?): name perSession, perClient, declinesPerClient, wrongAdminTokens, windowMs (PAYFORM_RATE_LIMITS=perClient=60,declinesPerClient=40); ' +
        'PAYFORM_RATE_LIMITS: perSession must be a whole number from 1, written perSession=<number> (PAYFORM_RATE_LIMITS=perClient=60,declinesPerClient=40); ' +
        'PAYFORM_RATE_LIMITS: windowMs must be a whole number from 1, written windowMs=<number>',
    );
    // Seconds for milliseconds, a pair named twice, a separator that is no comma: each refused as what it is.
    expect(() => readInCode({ PAYFORM_RATE_LIMITS: 'windowMs=60' })).toThrow('PAYFORM_RATE_LIMITS: windowMs is in milliseconds, from 1000 to 3600000 (60000 is a minute)');
    expect(() => readInCode({ PAYFORM_RATE_LIMITS: 'perClient=60,perClient=30' })).toThrow('PAYFORM_RATE_LIMITS: perClient is named twice');
    expect(() => readInCode({ PAYFORM_RATE_LIMITS: 'perClient=60;declinesPerClient=40' })).toThrow('PAYFORM_RATE_LIMITS: "perClient=60;declinesPerClient=40" is more than one pair: separate them with commas');
  });

  it('refuses PAYFORM_DATABASE_URL given as an empty string, as from the environment; null is unset', () => {
    expect(() => readInCode({ PAYFORM_DATABASE_URL: '' })).toThrow(/^Invalid environment: PAYFORM_DATABASE_URL is set but empty: give the database's URL, or remove the variable/);
    expect(currentEnvironment({ PAYFORM_DATABASE_URL: '', PAYFORM_PUBLIC_URL: '' }).blank).toEqual([{ name: 'PAYFORM_DATABASE_URL', meant: 'PAYFORM_DATABASE_URL' }]);
    expect(currentEnvironment({ PAYFORM_DATABASE_URL: null }).blank).toEqual([]);
    expect(readInCode({ PAYFORM_DATABASE_URL: null }).databaseUrl).toBe('./data/payform.db');
  });

  it('refuses PAYFORM_GATEWAY_WIDGET_KEY set but blank: a secret that failed to inject must not move card data onto this server', () => {
    expect(() => readInCode({ PAYFORM_GATEWAY_WIDGET_KEY: ' ' })).toThrow(
      /^Invalid environment: PAYFORM_GATEWAY_WIDGET_KEY is set but empty: give the project's widget key, or remove the variable to relay card data through this server \(PCI DSS SAQ D\)/,
    );
    expect(readInCode({ PAYFORM_GATEWAY_WIDGET_KEY: null }).tokenizer).toBeUndefined();
  });

  it('checks a number like the string it reads as', () => {
    expect(() => readInCode({ PAYFORM_SESSION_TTL_SECONDS: 30 })).toThrow(/^Invalid environment: PAYFORM_SESSION_TTL_SECONDS: must be at least 60/);
    expect(() => readInCode({ PORT: 41.25 })).toThrow(/^Invalid environment: PORT: must be a port number/);
    expect(() => readInCode({ PORT: Number.NaN })).toThrow(/^Invalid environment: PORT: must be a port number/);
  });

  it('refuses an object, an array or a function, naming the variable and what it must be, without quoting it', () => {
    const cases: [name: string, value: unknown, kind: string][] = [
      ['PORT', { port: 4125 }, 'an object'],
      ['PAYFORM_ALLOWED_ORIGINS', ['https://shop.example'], 'an array'],
      ['PAYFORM_ADMIN_TOKEN', () => 'a-long-enough-admin-token', 'a function'],
      ['PAYFORM_GATEWAY_API_SECRET', new String('live-secret'), 'an object'],
    ];
    for (const [name, value, kind] of cases) {
      expect(() => readInCode({ [name]: value }), name).toThrow(new TypeError(`Invalid environment: ${name}: must be a string, a number or a boolean, not ${kind}`));
    }
    // All of them in one refusal, and no value in it.
    const attempt = () => readInCode({ PAYFORM_ADMIN_TOKEN: { secret: 'a-long-enough-admin-token' }, PAYFORM_TRUST_PROXY: [true] });
    expect(attempt).toThrow(
      'Invalid environment: PAYFORM_ADMIN_TOKEN: must be a string, a number or a boolean, not an object; PAYFORM_TRUST_PROXY: must be a string, a number or a boolean, not an array',
    );
    expect(attempt).not.toThrow(/a-long-enough-admin-token/);
  });

  it('names a setting written as an option (publicUrl, adminToken) with the variable it reads, instead of ignoring it', () => {
    // Mounted, settings are written in code, and the composeCompanion options beside them are camelCase.
    const settings = readInCode({ publicUrl: 'https://shop.example', adminToken: 'a-long-enough-admin-token', databaseUrl: 'postgres://db/shop', apiKey: 'live-key', payform_log_level: 'debug' });
    expect(settings.warnings).toEqual([
      'publicUrl is not a variable of the companion and is ignored: did you mean PAYFORM_PUBLIC_URL?',
      'adminToken is not a variable of the companion and is ignored: did you mean PAYFORM_ADMIN_TOKEN?',
      'databaseUrl is not a variable of the companion and is ignored: did you mean PAYFORM_DATABASE_URL?',
      'apiKey is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_API_KEY?',
      'payform_log_level is not a variable of the companion and is ignored: did you mean PAYFORM_LOG_LEVEL?',
    ]);
    expect(settings).toMatchObject({ adminTokenGenerated: true, publicUrlDerived: true, databaseUrl: './data/payform.db' });
    // A refusal names them too: the variable is missing because of them.
    expect(() => readInCode({ NODE_ENV: 'production', adminToken: 'a-long-enough-admin-token' })).toThrow(/; adminToken is set: did you mean PAYFORM_ADMIN_TOKEN\?/);
    // What a process environment holds in lower case, and the shop's own upper-case names, are left alone.
    expect(readInCode({ http_proxy: 'http://proxy:3128', npm_config_cache: '/tmp', log_level: 'debug', node_env: 'test', trust_proxy: '1', DATABASE_URL: 'postgres://db/shop', Path: '/bin' }).warnings).toEqual([]);
  });

  it("runs in the process's NODE_ENV when the settings name none: production refuses the sandbox's test project", () => {
    // The package README's recipe: the settings in code, NODE_ENV as the host sets it.
    const sandbox = {
      PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'k3Jx9vQ2mPz8Lw4Rt7Yb', PAYFORM_DATABASE_URL: 'postgres://payform@db/payform',
      PAYFORM_GATEWAY_BASE_URL: 'https://sandbox.shop.example', PAYFORM_GATEWAY_POS_ID: '5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15', PAYFORM_GATEWAY_API_KEY: 'sandbox-test-api-key',
      PAYFORM_GATEWAY_API_SECRET: 'sandbox-test-api-secret-32-bytes', PAYFORM_GATEWAY_ENDPOINTS_KEY: 'sandbox-test-endpoints-key',
    };
    vi.stubEnv('NODE_ENV', 'production');
    try {
      expect(() => readInCode(sandbox)).toThrow(
        /production needs PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_API_SECRET, PAYFORM_GATEWAY_ENDPOINTS_KEY .*; NODE_ENV=production is this process's \(the settings given name no NODE_ENV\)$/,
      );
      // The settings' own NODE_ENV stands (a staging server on a sandbox says so).
      expect(readInCode({ ...sandbox, NODE_ENV: 'development' }).production).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(readInCode(sandbox).production).toBe(false);
  });
});

describe('the environment the other payform programs share', () => {
  /** Each PAYFORM_ name read from an environment (`env.X`, `process.env.X`, `$X`, `${X`) by the sandbox, the demo, the suites and CI. */
  function readByOtherPrograms(): string[] {
    const root = resolve(import.meta.dirname, '../..');
    const files = ['server/sandbox', 'demo', 'e2e', '.ci'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && (folder === '.ci' || /\.[cm]?[jt]s$/.test(entry.name)))
        .map((entry) => join(entry.parentPath, entry.name))
        .filter((path) => !/[/\\](node_modules|dist|test-results|playwright-report)[/\\]/.test(path)),
    );
    const names = files.flatMap((path) => [...readFileSync(path, 'utf8').matchAll(/(?:env\.|\$\{?)(PAYFORM_[A-Z0-9_]+)/g)].map((match) => match[1]!));
    return [...new Set(names)].sort();
  }

  it('warns of none of the variables they read: a stray is one no payform program reads', () => {
    const names = readByOtherPrograms();
    // The scan finds them (the demo's, the journeys', CI's), or this test would pass on nothing.
    expect(names).toEqual(expect.arrayContaining(['PAYFORM_DEMO_CARD_ENTRY', 'PAYFORM_E2E_WORKERS', 'PAYFORM_PREBUILDS']));
    expect(strayVariables(Object.fromEntries(names.map((name) => [name, '1'])), KNOWN_VARIABLES)).toEqual([]);
  });

  it('knows the sandbox’s variables, to name one set with the companion’s prefix', () => {
    expect(SANDBOX_VARIABLES).toEqual(SANDBOX_READS);
  });
});
