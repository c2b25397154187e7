// A widget and a companion of different versions: the session view says the companion's, which
// the widget checks (widget/checkout/session-view.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stacksPerTest } from '../test/stack.js';
import { VERSION as WIDGET_VERSION } from '../../../widget/checkout/session-view.js';
import { VIEW_VERSION } from './session-view.js';

const open = stacksPerTest();

const majorMinor = (packageFile: string): string =>
  (JSON.parse(readFileSync(new URL(packageFile, import.meta.url), 'utf8')) as { version: string }).version.split('.').slice(0, 2).join('.');

describe('the versions of widget and companion', () => {
  it('are each package’s major.minor, one for both, and the session view says it', async () => {
    expect(VIEW_VERSION).toBe(majorMinor('../package.json'));
    expect(WIDGET_VERSION).toBe(majorMinor('../../../widget/package.json'));
    expect(WIDGET_VERSION).toBe(VIEW_VERSION);
    const stack = await open();
    const session = await stack.openSession({ amount: 2550, currency: 'UAH' });
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({ version: '0.3', amount: 2550 });
  });
});
