// The companion a widget asks when its page gave no `endpoint`, with the widget's module loaded
// from a file: URL — as Turbopack (Next.js) bundles it, writing the module's own path in for
// import.meta.url. Node loads this module so too; the page's origin is a served companion's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stacksPerTest } from '../../server/companion/test/stack.js';
import { fetchView } from './companion.js';

const open = stacksPerTest();

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a widget whose script was not served over http(s)', () => {
  it('asks the page’s own origin for the session, not the script’s file', async () => {
    expect(import.meta.url).toMatch(/^file:/);
    const stack = await open({ served: true });
    const session = await stack.openSession({ amount: 2450, currency: 'UAH' });
    vi.stubGlobal('origin', stack.companionUrl);
    const view = await fetchView({ localName: 'pay-form', session: session.id, endpoint: '' });
    expect(view).toMatchObject({ amount: 2450, currency: 'UAH' });
  });
});
