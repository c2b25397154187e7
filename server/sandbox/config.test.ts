/**
 * createSandbox's options are checked before it starts: each wrong one was taken without a word
 * (a misspelt key, a project spelt as the projects file spells it, a public URL without its
 * scheme) or failed far from its cause. One TypeError names every one, its path and the fix.
 */
import { describe, expect, it } from 'vitest';
import { TEST_PROJECT_DEFAULTS } from '@payform/gateway/testing';
import { createSandbox } from './app.js';
import type { SandboxConfig } from './config.js';
import { readCommandLine } from './command-line.js';
import { parseProjects } from './projects-file.js';

const POS = '0b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34';

/** What createSandbox says of `config`, which it must refuse at once, before anything runs. */
function refusal(config: unknown): string {
  let thrown: unknown;
  try {
    createSandbox(config as SandboxConfig);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  return (thrown as TypeError).message;
}

describe('createSandbox refuses at once', () => {
  it('an option misspelt, at the top or inside, naming the one meant', () => {
    expect(refusal({ project: [{}] })).toBe('Invalid sandbox config: project is not an option (did you mean projects?)');
    expect(refusal({ timings: { slowCardDelay: 100 } })).toBe('Invalid sandbox config: timings.slowCardDelay is not an option (did you mean slowCardDelayMs?)');
    expect(refusal({ webhooks: { retryDelays: [10] } })).toBe('Invalid sandbox config: webhooks.retryDelays is not an option (did you mean retryDelaysMs?)');
    expect(refusal({ projects: [{ posID: POS }] })).toBe('Invalid sandbox config: projects[0].posID is not an option (did you mean posId?)');
  });

  it("a project spelt as the projects file spells it, naming each field's name here, rather than running on the test credentials", () => {
    expect(refusal({ projects: [{ pos_id: POS, api_key: 'acme-key' }] })).toBe(
      'Invalid sandbox config: projects[0].pos_id is the projects file\'s name: write posId; projects[0].api_key is the projects file\'s name: write apiKey; ' +
        "createSandbox's projects take Project's camelCase names; parseProjects(json) reads a projects file's JSON into them",
    );
    const ledger = { id: POS, name: 'Main', currency: 'UAH', live: true, opening: 0 };
    expect(refusal({ projects: [{ accounts: [{ ...ledger, receives_payments: false }] }] })).toContain('projects[0].accounts[0].receives_payments is the projects file\'s name: write live');
  });

  it('a value the projects file would refuse, in its words', () => {
    expect(refusal({ projects: [{ posId: 'abc' }] })).toBe('Invalid sandbox config: projects[0].posId: must be a UUID');
    expect(refusal({ projects: [{ apiKey: 'acme key', currencies: ['UAH'], currency: 'EUR', threeDSecure: 'sometimes' }] })).toBe(
      'Invalid sandbox config: projects[0].apiKey: must not hold whitespace or a colon: requests send it in X-API-AUTH: CPAY <API key>:<API secret>; ' +
        'projects[0].threeDSecure: must be one of card, always, never; projects[0].currency: must be one of the project’s currencies',
    );
    expect(refusal({ projects: [{ accounts: [{ id: POS, name: 'Main', currency: 'UAH', live: true, opening: 100.5 }] }] })).toBe(
      'Invalid sandbox config: projects[0].accounts[0].opening: must be an integer number of minor units (24950 = 249.50 UAH)',
    );
  });

  it('a public URL the bin would refuse, in its words, with the URL to give', () => {
    expect(refusal({ publicUrl: 'localhost:47135' })).toBe("Invalid sandbox config: publicUrl must be an http:// or https:// URL, not \"localhost:47135\": publicUrl: 'http://localhost:47135'");
    expect(refusal({ publicUrl: 'https://sandbox.test/base?x=1' })).toBe(
      "Invalid sandbox config: publicUrl must have no query or fragment, which would end up inside every link it hands out: publicUrl: 'https://sandbox.test/base'",
    );
    // The bin says the same of its flag.
    const bin = readCommandLine(['--public-url', 'localhost:47135'], {});
    expect(bin.kind === 'wrong' && bin.problems).toEqual(['--public-url must be an http:// or https:// URL, not "localhost:47135": --public-url http://localhost:47135']);
  });

  it('a value of the wrong type, where it used to fail deep inside or never', () => {
    expect(refusal({ startTime: '2026-01-01' })).toBe("Invalid sandbox config: startTime: must be a Date, such as new Date('2026-03-02T10:00:00Z'), not a string");
    expect(refusal({ startTime: new Date('someday') })).toBe("Invalid sandbox config: startTime: must be a Date, such as new Date('2026-03-02T10:00:00Z'), not an invalid Date");
    expect(refusal({ bodyLimitBytes: '1000' })).toBe('Invalid sandbox config: bodyLimitBytes: must be a number');
    expect(refusal({ log: 'console' })).toBe('Invalid sandbox config: log: must be a function');
  });

  it('every wrong option in one error', () => {
    expect(refusal({ project: [], publicUrl: 'localhost:47135', bodyLimitBytes: 0, allowedHosts: ['sandbox:3001'], timings: { slowCardDelayMs: -1 } })).toBe(
      'Invalid sandbox config: timings.slowCardDelayMs: must be at least 0; bodyLimitBytes: must be greater than 0; project is not an option (did you mean projects?); ' +
        "publicUrl must be an http:// or https:// URL, not \"localhost:47135\": publicUrl: 'http://localhost:47135'; " +
        'allowedHosts takes host names without a scheme or port, as requests name them: "sandbox:3001" would never match one; write sandbox',
    );
  });

  it('projects sharing a pos id or an API key, naming the one that took the test project’s', () => {
    expect(refusal({ projects: [{}, { posId: POS }] })).toBe(
      'Invalid sandbox config: projects[1].apiKey: is already another project’s (none given: it took the test project’s); give each project its own',
    );
  });
});

describe('createSandbox reads its projects as the projects file reads its own', () => {
  it('ids in lower case, widget origins without a path, an option given as undefined as one not given', async () => {
    const sandbox = createSandbox({
      projects: [{ posId: POS.toUpperCase(), apiKey: undefined, widgetOrigins: ['https://shop.example/'] }],
      publicUrl: 'https://Sandbox.test/gateway/',
      timings: { slowCardDelayMs: undefined },
    });
    const { config } = sandbox.sandbox.gateway;
    expect(config.projects[0]).toMatchObject({ posId: POS, apiKey: TEST_PROJECT_DEFAULTS.apiKey, widgetOrigins: ['https://shop.example'] });
    expect(config.publicUrl).toBe('https://sandbox.test/gateway');
    expect(config.timings.slowCardDelayMs).toBe(5_000);
    // parseProjects' output is a valid projects option.
    const fromFile = parseProjects({ projects: [{ pos_id: POS, api_key: 'k', api_secret: 's', endpoints_key: 'e', name: 'Acme', accounts: [{ id: POS, name: 'Main', currency: 'UAH' }] }] });
    const other = createSandbox({ projects: fromFile });
    expect(other.sandbox.gateway.config.projects[0]?.accounts).toEqual([{ id: POS, name: 'Main', currency: 'UAH', live: true, opening: 0 }]);
    await Promise.all([sandbox.sandbox.stop(), other.sandbox.stop()]);
  });
});
