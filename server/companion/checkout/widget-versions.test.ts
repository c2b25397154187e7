// A widget and a companion of different versions: the session view says the companion's, which
// the widget checks (widget/checkout/session-view.ts), and a 0.2 widget — which cannot check —
// is recognised by its payments and said to the operator.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { VERSION as WIDGET_VERSION } from '../../../widget/checkout/session-view.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';
import { VIEW_VERSION } from './session-view.js';

const SHOP = 'https://shop.example';
const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };
const open = stacksPerTest();

const majorMinor = (packageFile: string): string =>
  (JSON.parse(readFileSync(new URL(packageFile, import.meta.url), 'utf8')) as { version: string }).version.split('.').slice(0, 2).join('.');

/** The lines said of a 0.2 widget. */
const skewLines = (stack: Stack) => stack.logs.filter((line) => line.includes('@payform/widget 0.2')).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the versions of widget and companion', () => {
  it('are one session view version for both, the release’s that last changed the view, and the view says it', async () => {
    // Changed with the view only: the packages move on, and widgets and companions of releases
    // that leave the view as it is work together.
    expect(WIDGET_VERSION).toBe(VIEW_VERSION);
    expect(Number(VIEW_VERSION.split('.')[1])).toBeLessThanOrEqual(Number(majorMinor('../package.json').split('.')[1]));
    const stack = await open();
    const session = await stack.openSession({ amount: 2550, currency: 'UAH' });
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({ version: '0.3', amount: 2550 });
  });

  it('says a 0.2 widget’s payments once while browsers may hold the 0.2 script, and once after, never a server’s or a 0.3 widget’s', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ clock, companion: { allowedOrigins: [SHOP] } });
    const session = () => stack.openSession({ customer: CONTACT });
    const fromPage = { headers: { origin: SHOP } };

    // A made-up session, the merchant's server without page_url, and a 0.3 widget with it: nothing said.
    expect((await stack.pay('A'.repeat(43), payBody(), fromPage)).status).toBe(404);
    await stack.json('POST', `/api/checkout/sessions/${'A'.repeat(43)}/hosted`, 404, { body: {}, headers: { origin: SHOP } });
    expect((await stack.pay((await session()).id, payBody())).status).toBe(200);
    expect((await stack.pay((await session()).id, payBody({ page_url: `${SHOP}/checkout` }), fromPage)).status).toBe(200);
    await stack.json('POST', `/api/checkout/sessions/${(await session()).id}/hosted`, 200, { body: {} });
    expect(skewLines(stack)).toEqual([]);

    // A 0.2 widget pays (its body has no page_url) from the shop's page: said, and not again.
    expect((await stack.pay((await session()).id, payBody(), fromPage)).status).toBe(200);
    expect((await stack.pay((await session()).id, payBody(), fromPage)).status).toBe(200);
    const started = new Date(clock.now + 300_000).toISOString();
    expect(skewLines(stack)).toEqual([
      expect.objectContaining({ level: 'warn', origin: SHOP, msg: expect.stringContaining(`browsers cached from this companion before the upgrade (Cache-Control: max-age=300), or a page opened before it; said again if it goes on after ${started}`) }),
    ]);
    expect(skewLines(stack)[0]!.msg).toContain('reads this 0.3 companion’s amounts, integer minor units, as decimals: its customers see 2550 (25.50 UAH) as UAH 2,550.00');

    // Past the 5 minutes, its hosted page asked for (0.2 sends only the customer): said once more, firmly.
    clock.advance(300_000);
    await stack.json('POST', `/api/checkout/sessions/${(await session()).id}/hosted`, 200, { body: {}, headers: { origin: SHOP } });
    expect((await stack.pay((await session()).id, payBody(), fromPage)).status).toBe(200);
    const lines = skewLines(stack);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.msg).toContain(
      `Upgrade the page’s @payform/widget, or its copy of pay-form.js (a CDN’s too), to 0.3, or load this companion’s own ${stack.companionUrl}/widget/pay-form.js, which moves with it`,
    );
  });

  it('says, once an hour, a widget that reads a session saying another version, never one of its own, a page’s own read, or a made-up session’s', async () => {
    const stack = await open();
    const session = await stack.openSession();
    const read = (id: string, query: string, status = 200) => stack.json('GET', `/api/checkout/sessions/${id}${query}`, status);
    const said = () => stack.logs.filter((line) => line.includes('read a checkout session of this')).map((line) => JSON.parse(line) as Record<string, unknown>);
    await read(session.id, '?version=0.3');
    await read(session.id, '');
    // Anything but a major.minor is no widget's: refused, naming it.
    expect((await read(session.id, `?version=${encodeURIComponent('<b>0.4</b>')}`, 400)).error.fields).toEqual({ version: 'must be the session view version the widget reads, a major.minor (0.3)' });
    await read('A'.repeat(43), '?version=0.4', 404);
    expect(said()).toEqual([]);

    // Anyone holding a session id may read it saying any version: that says its own line, and
    // keeps a real widget's from none (each version once an hour, a few an hour).
    await read(session.id, '?version=9999.9999');
    await read(session.id, '?version=0.4');
    await read(session.id, '?version=0.4');
    expect(said()).toEqual([
      expect.objectContaining({ level: 'warn', view_version: '9999.9999' }),
      expect.objectContaining({
        level: 'warn',
        view_version: '0.4',
        msg:
          'a <pay-form> or <pay-button> reading session views of version 0.4 read a checkout session of this companion, whose view is version 0.3: a widget shows only a view of its own version, so its customers see no amount and cannot pay. ' +
          `Serve the page the widget this companion serves (${stack.companionUrl}/widget/pay-form.js), or upgrade the companion to a release whose session view is 0.4. Said once an hour`,
      }),
    ]);
  });
});
