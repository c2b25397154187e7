/**
 * Projects from a file: what a merchant's file sets reaches the sandbox's behaviour over its
 * API (credentials, currencies, accounts and terminals, 3-D Secure policy), and a wrong file is
 * refused with every problem named at once.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authHeaderValue } from '../gateway/wire/routes.js';
import { parseProjects, ProjectsFileError, readProjectsFile } from './projects-file.js';
import { directPayment, testSandbox } from './testing/in-process.js';

const POS = '0b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34';
const project = (overrides: Record<string, unknown> = {}) => ({
  pos_id: POS, api_key: 'acme-key', api_secret: 'acme-secret', endpoints_key: 'acme-endpoints', name: 'Acme', ...overrides,
});

function problems(json: unknown): string[] {
  try {
    parseProjects(json);
  } catch (error) {
    if (error instanceof ProjectsFileError) return error.issues.map(({ field, reason }) => `${field}: ${reason}`);
    throw error;
  }
  throw new Error('the file was accepted');
}

/** A sandbox with one project from a file, and requests with that project's credentials. */
function sandboxOf(entry: Record<string, unknown>) {
  const logged: string[] = [];
  const sandbox = testSandbox({ projects: parseProjects({ projects: [entry] }), log: (line) => logged.push(line) });
  const headers = { 'X-API-AUTH': authHeaderValue(String(entry.api_key), String(entry.api_secret)), 'X-API-KEY': String(entry.endpoints_key) };
  return { sandbox, headers, logged };
}

describe('projects file', () => {
  it('loads the example of docs/sandbox-projects.example.json', async () => {
    const projects = await readProjectsFile('docs/sandbox-projects.example.json');
    expect(projects.map((entry) => [entry.name, entry.posId, entry.currencies, entry.threeDSecure])).toEqual([
      ['Acme Coffee', POS, ['UAH', 'EUR', 'XTS'], 'always'],
      ['Acme Marketplace', '7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75', ['EUR', 'XTS'], 'never'],
    ]);
    expect(projects[0]).toMatchObject({ currency: 'UAH', captureOverReservePercent: 10, subMerchants: ['3f9a1c7e-5b2d-4e80-9a6c-1d7e3b5f0c28'] });
    expect(projects[1]).toMatchObject({ currency: 'EUR' });
    expect(testSandbox({ projects }).app.sandbox.gateway.config.projects).toHaveLength(2);
  });

  it('names every wrong entry at once, the checks across fields too', () => {
    expect(
      problems({
        projects: [
          project({
            pos_id: 'not-a-uuid',
            currency: 'GBP',
            currencies: ['UAH', 'UAH', 'EURO'],
            sub_merchants: ['3f9a1c7e-5b2d-4e80-9a6c-1d7e3b5f0c28', '3f9a1c7e-5b2d-4e80-9a6c-1d7e3b5f0c28'],
            accounts: [
              { id: '6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10', name: 'Main', currency: 'UAH', opening_balance_minor: 100.5 },
              { id: '9e5b3d17-6a4c-4f21-a8e0-7c2b9d1f5a46', name: 'Fils', currency: 'KWD', opening_balance_minor: 1005 },
              { id: '2c8f6e03-b19d-4a75-9e4b-0d6a3c8f1b92', name: 'As in 0.3', currency: 'UAH', opening_balance: 12500.5 },
            ],
            capture_over_reserve_percent: -5,
          }),
          project({ pos_id: '7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75', endpoints_key: '', three_d_secure: 'maybe' }),
          { pos_id: '7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75' },
        ],
        extra: true,
      }),
    ).toEqual([
      'projects[0].pos_id: must be a UUID',
      'projects[0].currencies[2]: must be a three-letter upper-case ISO 4217 code',
      'projects[0].capture_over_reserve_percent: must be at least 0',
      'projects[0].currency: must be one of the project’s currencies',
      'projects[0].currencies[1]: appears twice',
      'projects[0].sub_merchants[1]: appears twice',
      'projects[0].accounts[0].opening_balance_minor: must be an integer number of minor units (24950 = 249.50 UAH)',
      'projects[0].accounts[1].opening_balance_minor: must be a multiple of 10 minor units: the gateway takes KWD with at most 2 decimal digits',
      'projects[0].accounts[2].opening_balance: is not taken here (in the sandbox 0.2 it was major units): send opening_balance_minor, in integer minor units: opening_balance_minor: 1250050 for 12500.50 UAH',
      'projects[1].endpoints_key: must not be empty',
      'projects[1].three_d_secure: must be one of card, always, never',
      'projects[2].api_key: is required',
      'projects[2].api_secret: is required',
      'projects[2].endpoints_key: is required',
      'projects[2].name: is required',
      'extra: is not allowed',
      'projects[2].pos_id: is already another project’s',
      'projects[1].api_key: is already another project’s',
    ]);
    expect(problems({ projects: [] })).toEqual(['projects: must list at least one project']);
    expect(problems([project()])).toEqual([': must be an object']);
  });

  it('takes an overdrawn opening balance, within what the wire carries either way', () => {
    const account = (name: string, balance: number, id: string) => ({ id, name, currency: 'UAH', opening_balance_minor: balance });
    expect(
      problems({
        projects: [
          project({
            accounts: [
              account('Overdrawn', -5000, '6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10'),
              account('Past the wire', -1_000_000_000_000_000, '9e5b3d17-6a4c-4f21-a8e0-7c2b9d1f5a46'),
            ],
          }),
        ],
      }),
    ).toEqual(['projects[0].accounts[1].opening_balance_minor: must be at most 999999999999999 (9999999999999.99 UAH)']);
  });

  it('refuses credentials a request could never send: spaces around them, a space or colon inside the key or secret', () => {
    expect(
      problems({
        projects: [
          project({ api_key: ' acme-key', api_secret: 'acme-secret\n', endpoints_key: 'acme-endpoints ', widget_key: '\tacme-widget' }),
          project({ pos_id: '7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75', api_key: 'acme:key', api_secret: 'acme secret' }),
        ],
      }),
    ).toEqual([
      'projects[0].api_key: must not begin or end with whitespace',
      'projects[0].api_secret: must not begin or end with whitespace',
      'projects[0].endpoints_key: must not begin or end with whitespace',
      'projects[0].widget_key: must not begin or end with whitespace',
      'projects[1].api_key: must not hold whitespace or a colon: requests send it in X-API-AUTH: CPAY <API key>:<API secret>',
      'projects[1].api_secret: must not hold whitespace: requests send it in X-API-AUTH: CPAY <API key>:<API secret>',
    ]);
  });

  it('refuses credentials outside printable ASCII, which no request matches: curl and PHP send them as UTF-8 bytes', () => {
    const refusal = 'must hold printable ASCII characters only: a header cannot carry it';
    expect(problems({ projects: [project({ api_key: 'clé', api_secret: 'sécret-ключ', endpoints_key: 'endpoints-€', widget_key: 'widget-ü' })] })).toEqual([
      `projects[0].api_key: ${refusal}`,
      `projects[0].api_secret: ${refusal}`,
      `projects[0].endpoints_key: ${refusal}`,
      `projects[0].widget_key: ${refusal}`,
    ]);
    expect(problems({ projects: [project({ api_secret: 'secret\u0000tail', endpoints_key: 'endpoints\u007f' })] })).toEqual([`projects[0].api_secret: ${refusal}`, `projects[0].endpoints_key: ${refusal}`]);
  });

  it('reads a file that begins with a byte order mark, and refuses keys written twice, naming each', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'payform-projects-'));
    try {
      const bom = join(directory, 'bom.json');
      await writeFile(bom, `\uFEFF${JSON.stringify({ projects: [project()] })}`, 'utf8');
      expect((await readProjectsFile(bom)).map((entry) => entry.apiKey)).toEqual(['acme-key']);

      const twice = join(directory, 'twice.json');
      const entry = JSON.stringify(project()).slice(1, -1);
      await writeFile(
        twice,
        `{"projects": [{${entry}}, {${entry.replace(POS, '7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75').replace('acme-key', 'other-key')}, "api_secret": "s2", "accounts": [{"id": "a", "\\u0069d": "b"}], "4111111111111111": 1, "4111111111111111": 2, "note": "\\"api_key\\": {}, [x]"}],\n "projects": []}`,
        'utf8',
      );
      await expect(readProjectsFile(twice)).rejects.toThrow(ProjectsFileError);
      const error = (await readProjectsFile(twice).catch((caught: unknown) => caught)) as ProjectsFileError;
      expect(error.issues.map(({ field, reason }) => `${field}: ${reason}`)).toEqual([
        'projects[1].api_secret: appears twice in its object, and JSON keeps only the last: remove one',
        'projects[1].accounts[0].id: appears twice in its object, and JSON keeps only the last: remove one',
        // A key that could hold a card number is not written back.
        'projects[1].*: appears twice in its object, and JSON keeps only the last: remove one',
        'projects: appears twice in its object, and JSON keeps only the last: remove one',
        'projects: must list at least one project',
      ]);

      // 1500.00 reads as 1500: fifteen hryvnias where fifteen hundred were meant.
      const written = join(directory, 'written.json');
      const account = '{"id": "6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10", "name": "Main", "currency": "UAH", "opening_balance_minor": 1500.00}';
      await writeFile(written, `{"projects": [{${entry}, "accounts": [${account}]}]}`, 'utf8');
      const refused = (await readProjectsFile(written).catch((caught: unknown) => caught)) as ProjectsFileError;
      expect(refused.issues.map(({ field, reason }) => `${field}: ${reason.slice(0, 60)}`)).toEqual(['projects[0].accounts[0].opening_balance_minor: must be written as a whole number of minor units, without a ']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('gives the project its card tokenizer’s widget key and origins, each key unique', () => {
    const [first, second] = parseProjects({
      projects: [project({ widget_key: 'acme-widget', widget_origins: ['https://shop.example/checkout'] }), project({ pos_id: '1b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34', api_key: 'other' })],
    });
    expect(first).toMatchObject({ widgetKey: 'acme-widget', widgetOrigins: ['https://shop.example'] });
    expect(second).not.toHaveProperty('widgetKey');
    const clash = () => parseProjects({ projects: [project({ widget_key: 'same' }), project({ pos_id: '1b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34', api_key: 'other', widget_key: 'same' })] });
    expect(clash).toThrow(/projects\[1\]\.widget_key: is already another project’s/);
  });

  it('gives the project its credentials, currencies (XTS among them) and accounts and terminals', async () => {
    const ledger = (id: string, name: string, extra: Record<string, unknown> = {}) => ({ id, name, currency: 'UAH', opening_balance_minor: 10_000, ...extra });
    const { sandbox, headers } = sandboxOf(
      project({
        currencies: ['UAH', 'XTS'],
        accounts: [ledger('6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10', 'Main')],
        terminals: [
          ledger('9e5b3d17-6a4c-4f21-a8e0-7c2b9d1f5a46', 'Web'),
          ledger('2c8f6e03-b19d-4a75-9e4b-0d6a3c8f1b92', 'Kiosk', { receives_payments: false, unavailable: 'Kiosk is offline' }),
        ],
      }),
    );
    const pay = (currency: string) => sandbox.call('POST', '/api/v1/payment', { body: directPayment(sandbox.project, { currency, amount: 10 }), headers });
    expect(await (await pay('XTS')).json()).toMatchObject({ status: 'success', currency: 'XTS' });
    expect(await (await pay('UAH')).json()).toMatchObject({ status: 'success' });
    expect((await pay('USD')).status).toBe(400); // not this project's

    const terminals = await (await sandbox.call('GET', `/api/v1/balances/pos/${POS}/terminals`, { headers })).json();
    // 100 opening + 10 paid − 0.20 commission (0.05 + 1.5 %) on the live terminal; the other fails.
    expect(terminals).toEqual({
      terminals: [{ id: '9e5b3d17-6a4c-4f21-a8e0-7c2b9d1f5a46', name: 'Web', currency: 'UAH', balances: { available: 109.8 } }],
      failed_terminals: [{ id: '2c8f6e03-b19d-4a75-9e4b-0d6a3c8f1b92', message: 'Kiosk is offline' }],
    });
    const accounts = (await (await sandbox.call('GET', `/api/v1/balances/pos/${POS}/accounts`, { headers })).json()) as { accounts: { id: string }[] };
    expect(accounts.accounts.map((account) => account.id)).toEqual(['6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10']);
  });

  it('says once, at start, which accepted currency its own accounts or terminals leave out', () => {
    const ledger = (id: string, currency: string) => ({ id, name: `In ${currency}`, currency });
    const gaps = sandboxOf(
      project({
        currencies: ['UAH', 'EUR', 'XTS'],
        accounts: [ledger('6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10', 'UAH')],
        terminals: [ledger('9e5b3d17-6a4c-4f21-a8e0-7c2b9d1f5a46', 'UAH'), ledger('2c8f6e03-b19d-4a75-9e4b-0d6a3c8f1b92', 'EUR')],
      }),
    );
    expect(gaps.logged).toEqual([
      `payform sandbox: project "Acme" (pos_id ${POS}) lists its own ledgers with no account in EUR, XTS and no terminal in XTS, currencies it accepts: ` +
        'its payments in them move no balance there. Add one in each (with "receives_payments": false to mean that), ' +
        'or leave the currency out of the project\'s "currencies" (when not given: every currency the sandbox takes)',
    ]);
    // A ledger in a currency the project does not take is named too.
    const foreign = sandboxOf(project({ currencies: ['UAH'], terminals: [ledger('9e5b3d17-6a4c-4f21-a8e0-7c2b9d1f5a46', 'UAH'), ledger('2c8f6e03-b19d-4a75-9e4b-0d6a3c8f1b92', 'EUR')] }));
    expect(foreign.logged).toEqual([expect.stringContaining('lists "In EUR" (EUR) in a currency it does not accept: no payment moves them')]);
    // Not a word for a project whose ledgers cover its currencies, nor for one with the sandbox's own.
    expect(sandboxOf(project({ currencies: ['EUR'], accounts: [ledger('6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10', 'EUR')] })).logged).toEqual([]);
    expect(sandboxOf(project({ currencies: ['UAH', 'EUR'] })).logged).toEqual([]);
  });

  it('moves one account and one terminal by a payment, the first listed in its currency, and says so of the others', async () => {
    const ledger = (id: string, name: string) => ({ id, name, currency: 'UAH', opening_balance_minor: 10_000 });
    const { sandbox, headers, logged } = sandboxOf(
      project({
        currencies: ['UAH'],
        accounts: [ledger('6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10', 'Main'), ledger('5f0e9b2c-7a41-4d83-9c6e-1b8a3d5f2e07', 'Spare')],
        terminals: [ledger('9e5b3d17-6a4c-4f21-a8e0-7c2b9d1f5a46', 'Web'), ledger('3a7c1e95-2d6b-4f08-b4e1-8c0d5a9f6b21', 'Kiosk')],
      }),
    );
    expect(await (await sandbox.call('POST', '/api/v1/payment', { body: directPayment(sandbox.project, { amount: 10 }), headers })).json()).toMatchObject({ status: 'success' });
    const balances = async (kind: string) =>
      ((await (await sandbox.call('GET', `/api/v1/balances/pos/${POS}/${kind}`, { headers })).json()) as Record<string, { name: string; balances: { available: number } }[]>)[kind]!.map(
        (entry) => [entry.name, entry.balances.available],
      );
    // 100 opening + 10 paid − 0.20 commission once, on the first of each; the second as it opened.
    expect(await balances('terminals')).toEqual([['Web', 109.8], ['Kiosk', 100]]);
    expect((await balances('accounts'))[1]).toEqual(['Spare', 100]);
    expect(logged).toEqual([expect.stringContaining('lists "Spare" (UAH), "Kiosk" (UAH) to receive payments in a currency a ledger listed before already does')]);
  });

  it('applies the 3-D Secure policy: always challenges every card but a wallet token, never lets the challenge card through', async () => {
    const always = sandboxOf(project({ three_d_secure: 'always' }));
    const challenged = await always.sandbox.call('POST', '/api/v1/payment', { body: directPayment(always.sandbox.project), headers: always.headers });
    expect(await challenged.json()).toMatchObject({ status: 'pending', status_code: '2122', user_action_required: true });
    // A wallet token is authenticated on the customer's device: docs/sandbox.md excepts it.
    const { cc_number: _n, exp_month: _m, exp_year: _y, card_cvv: _c, ...withoutCard } = directPayment(always.sandbox.project);
    const wallet = await always.sandbox.call('POST', '/api/v1/payment', { body: { ...withoutCard, cc_token: 'rcr:google-pay-4f1a' }, headers: always.headers });
    expect(await wallet.json()).toMatchObject({ status: 'success', status_code: '1000' });

    const never = sandboxOf(project({ three_d_secure: 'never' }));
    const frictionless = await never.sandbox.call('POST', '/api/v1/payment', {
      body: directPayment(never.sandbox.project, {}, '4000000000003220'),
      headers: never.headers,
    });
    expect(await frictionless.json()).toMatchObject({ status: 'success', status_code: '1000', eci: '05' });
  });

  it('makes a project strict by its own `strict`, refusing the unknown field a tolerant one ignores', async () => {
    const sent = (entry: Record<string, unknown>) => {
      const { sandbox, headers } = sandboxOf(entry);
      return sandbox.call('POST', '/api/v1/payment', { body: { ...directPayment(sandbox.project), order_note: 'gift' }, headers });
    };
    expect((await sent(project())).status).toBe(200);
    const refused = await sent(project({ strict: true }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toMatch(/order_note/);
    expect(problems({ projects: [project({ strict: 'yes' })] })).toEqual(['projects[0].strict: must be a boolean']);
  });
});
