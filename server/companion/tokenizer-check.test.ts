// The widget key checked at start against the sandbox's card tokenizer over HTTP: a key the
// tokenizer knows says nothing, a wrong one — or a widget URL where nothing, or no tokenizer,
// answers — is said once as the companion starts, naming the setting and the fix, before a
// customer's browser meets it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_WIDGET_KEY } from '@payform/gateway/testing';
import { serveSandbox } from '../sandbox/testing/served.js';
import type { ServedSandbox } from '../sandbox/testing/served.js';
import type { Listing } from '../sandbox/inspector/listing.js';
import { createLogger, memorySink } from './log/logger.js';
import { loopbackSettings } from './test/loopback-settings.js';
import { startCompanion } from './start.js';
import { eventually } from './test/stack.js';
import { closedPort } from './test/closed-port.js';

const TOKENIZE = '/api/v1/sdk/tokenize';

let sandbox: ServedSandbox;
const opened: Array<{ close(): Promise<void> }> = [];
beforeEach(async () => {
  sandbox = await serveSandbox();
  opened.push(sandbox);
});
afterEach(async () => {
  for (const one of opened.splice(0).reverse()) await one.close();
});

/** The companion started against the sandbox with these widget settings; its log lines (debug included). */
async function startWith(widget: { PAYFORM_GATEWAY_WIDGET_KEY: string; PAYFORM_GATEWAY_WIDGET_URL?: string; PAYFORM_ALLOWED_ORIGINS?: string }, gateway = sandbox.url) {
  const memory = memorySink();
  const settings = loopbackSettings({ PAYFORM_GATEWAY_BASE_URL: gateway, ...widget });
  opened.push(await startCompanion(settings, { logger: createLogger({ sink: memory.sink, level: 'debug' }) }));
  const lines = () => memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string; status?: number });
  return { lines, loud: () => lines().filter((line) => line.level === 'warn' || line.level === 'error') };
}

/** The tokenize calls the sandbox answered, with their answers' ids. */
async function tokenizeCalls(): Promise<Array<{ status: number | undefined; id: unknown }>> {
  const { requests } = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Listing;
  return requests
    .filter((request) => request.path === TOKENIZE && request.method === 'POST')
    .map((request) => ({ status: request.status, id: (request.response?.body as { id?: unknown } | undefined)?.id }));
}

describe('the widget key checked at start', () => {
  it('says nothing when the tokenizer knows the key: it refuses the check’s number for its Luhn digit, and tokenizes no card', async () => {
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY });
    await eventually(() => expect(started.lines().filter((line) => line.msg === 'the gateway’s tokenizer takes the widget key')).toEqual([expect.objectContaining({ level: 'debug', status: 422 })]));
    // The key's check, and the pages' origin's (tokenizer-origins.ts): no card tokenized by either.
    await eventually(async () => expect(await tokenizeCalls()).toEqual([{ status: 422, id: 'invalid_card_number' }, { status: 422, id: 'invalid_card_number' }]));
    expect(started.loud()).toEqual([]);
  });

  it('says a key the tokenizer does not know once, naming the setting, the option and the fix', async () => {
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: 'a-stale-widget-key' });
    await eventually(() => expect(started.loud()).toHaveLength(1));
    expect(started.loud()[0]).toMatchObject({
      level: 'error',
      msg:
        `the gateway’s tokenizer at ${sandbox.url}${TOKENIZE} refuses the widget key (HTTP 401 unknown_widget), so <pay-form> cannot tokenize a card and every card payment fails: ` +
        'set PAYFORM_GATEWAY_WIDGET_KEY (the companion’s tokenizer.widgetKey) to the widget key of the project the tokenizer belongs to ' +
        '(production’s and stage’s differ; the tokenizer is PAYFORM_GATEWAY_WIDGET_URL (tokenizer.widgetUrl; by default PAYFORM_GATEWAY_BASE_URL))',
    });
    // The key's check, and the origins' (which says nothing of a key refused: that is this line's).
    await eventually(async () => expect(await tokenizeCalls()).toEqual([{ status: 401, id: 'unknown_widget' }, { status: 401, id: 'unknown_widget' }]));
    expect(started.loud()).toHaveLength(1);
  });

  it('says a widget URL where nothing listens once, naming the setting', async () => {
    const nowhere = `https://127.0.0.1:${await closedPort()}`;
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY, PAYFORM_GATEWAY_WIDGET_URL: nowhere });
    await eventually(() => expect(started.loud()).toHaveLength(1));
    expect(started.loud()[0]).toMatchObject({
      level: 'error',
      msg:
        `the gateway’s tokenizer at ${nowhere}${TOKENIZE} cannot be reached from this server (ECONNREFUSED): <pay-form> sends every customer to the gateway’s page instead of taking the card; ` +
        'set PAYFORM_GATEWAY_WIDGET_URL (tokenizer.widgetUrl; by default PAYFORM_GATEWAY_BASE_URL) to the gateway’s widget host, https://widget.<gateway> without a path (the tokenizer is its /api/v1/sdk/tokenize)',
    });
  });

  it('names PAYFORM_GATEWAY_BASE_URL, not a widget URL never set, when the tokenizer is looked for at the gateway’s address', async () => {
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY }, nowhere);
    await eventually(() => expect(started.loud().filter((line) => line.msg.includes('tokenizer'))).toHaveLength(1));
    expect(started.loud().filter((line) => line.msg.includes('tokenizer'))[0]).toMatchObject({
      level: 'error',
      msg:
        `the gateway’s tokenizer at ${nowhere}${TOKENIZE} cannot be reached from this server (ECONNREFUSED): <pay-form> sends every customer to the gateway’s page instead of taking the card; ` +
        'set PAYFORM_GATEWAY_BASE_URL (the gateway client’s baseUrl, mounted) to the gateway’s address, where the tokenizer is looked for while PAYFORM_GATEWAY_WIDGET_URL is unset — ' +
        'or, if the gateway’s tokenizer is on a host of its own, set PAYFORM_GATEWAY_WIDGET_URL to the gateway’s widget host, https://widget.<gateway> without a path (the tokenizer is its /api/v1/sdk/tokenize)',
    });
  });

  it('says a 401 not in the tokenizer’s words is another server’s, naming the widget URL rather than the key', async () => {
    // A gateway whose API host guards every path it does not know, in its own error shape (no
    // tokenizer `id`), with the widget URL left to default to that host: the key is right.
    const guarded = serve({
      fetch: (request) =>
        new URL(request.url).pathname === TOKENIZE
          ? Response.json({ message: 'Unauthorized', args: { code: 'P-401' } }, { status: 401 })
          : fetch(new URL(new URL(request.url).pathname + new URL(request.url).search, sandbox.url), request),
      port: 0,
      hostname: '127.0.0.1',
    }) as Server;
    await new Promise((resolve) => guarded.once('listening', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => (guarded.closeAllConnections(), guarded.close(() => resolve()))) });
    const host = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}`;
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY }, host);
    await eventually(() => expect(started.loud()).toHaveLength(1));
    expect(started.loud()[0]).toMatchObject({
      level: 'error',
      msg:
        `what answers at ${host}${TOKENIZE} is not the gateway’s tokenizer (it answers HTTP 401 without the tokenizer’s refusal, an "id"): ` +
        'set PAYFORM_GATEWAY_WIDGET_URL (tokenizer.widgetUrl; by default PAYFORM_GATEWAY_BASE_URL) to the gateway’s widget host, https://widget.<gateway> without a path (the tokenizer is its /api/v1/sdk/tokenize)',
    });
  });

  it('says a widget URL given with the tokenizer’s path, where the host has no such path, once', async () => {
    // The notes' `https://widget.<gateway>/api/v1/sdk/` copied whole: the tokenizer is then looked for under it.
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY, PAYFORM_GATEWAY_WIDGET_URL: `${sandbox.url}/api/v1/sdk/` });
    await eventually(() => expect(started.loud()).toHaveLength(1));
    expect(started.loud()[0]).toMatchObject({
      level: 'error',
      msg: expect.stringMatching(new RegExp(`^what answers at ${sandbox.url}/api/v1/sdk${TOKENIZE} is not the gateway’s tokenizer \\(it has no such path: HTTP 404\\): set PAYFORM_GATEWAY_WIDGET_URL `)),
    });
    expect(await tokenizeCalls()).toEqual([]);
  });
});

describe('the pages’ origins checked at start against the tokenizer’s CORS', () => {
  const SHOP = 'https://shop.example';

  it('names the origins the gateway project does not list, once, with the fix; says nothing of those it lists', async () => {
    sandbox = await serveSandbox({ projects: [{ widgetOrigins: [SHOP] }] });
    opened.push(sandbox);
    const memory = memorySink();
    const settings = loopbackSettings({
      PAYFORM_GATEWAY_BASE_URL: sandbox.url, PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY, PAYFORM_ALLOWED_ORIGINS: `${SHOP},https://forgotten.example,https://also-forgotten.example`,
    });
    opened.push(await startCompanion(settings, { logger: createLogger({ sink: memory.sink, level: 'debug' }) }));
    const loud = () => memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string; origins?: string[] }).filter((line) => line.level === 'error' || line.level === 'warn');
    await eventually(() => expect(loud()).toHaveLength(1));
    expect(loud()[0]).toMatchObject({ level: 'warn', origins: ['https://forgotten.example', 'https://also-forgotten.example'] });
    expect(loud()[0]!.msg).toContain('does not let pages at https://forgotten.example, https://also-forgotten.example call it');
    expect(loud()[0]!.msg).toContain('add them to the widget origins of the gateway project PAYFORM_GATEWAY_WIDGET_KEY belongs to');
    // Asked as a browser asks, and nothing tokenized.
    expect((await tokenizeCalls()).every((call) => call.id === 'invalid_card_number' || call.status === undefined)).toBe(true);
  });

  it('names an origin another project of the gateway lists, which passes the preflight and is refused by the POST', async () => {
    const OTHER = 'https://other-shop.example';
    sandbox = await serveSandbox({ projects: [{ widgetOrigins: [SHOP] }, { posId: '7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75', apiKey: 'other-project-api-key', widgetOrigins: [OTHER] }] });
    opened.push(sandbox);
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY, PAYFORM_ALLOWED_ORIGINS: `${SHOP},${OTHER},https://nobody.example` });
    await eventually(() => expect(started.loud()).toHaveLength(1));
    expect(started.loud()[0]).toMatchObject({ level: 'warn', msg: expect.stringContaining(`does not let pages at ${OTHER}, https://nobody.example call it`) });
  });

  it('says nothing when every page’s origin is listed', async () => {
    sandbox = await serveSandbox({ projects: [{ widgetOrigins: [SHOP] }] });
    opened.push(sandbox);
    const started = await startWith({ PAYFORM_GATEWAY_WIDGET_KEY: TEST_WIDGET_KEY, PAYFORM_ALLOWED_ORIGINS: SHOP });
    await eventually(() => expect(started.lines().filter((line) => line.msg === 'the gateway’s tokenizer takes pages from every allowed origin')).toEqual([expect.objectContaining({ level: 'debug' })]));
    expect(started.loud()).toEqual([]);
  });
});
