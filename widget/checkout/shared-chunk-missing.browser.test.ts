// The build's paying chunk and customer checks (chunks/paying.js, chunks/checks.js) import a chunk
// they share, the card schemes' table and Luhn (chunks/luhn.js), which pay-form.js fetches beside
// them. A page whose server does not serve that one: the console and the error name it, not the
// chunk that imports it, which the server does serve (Chromium's error for an import() names the
// module imported, not the dependency that failed). This file's page loads the build
// (widget/test/built.ts) and fails the shared chunk from the start (a page that failed to load a
// module keeps failing).
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayEventDetails } from '../events.js';
import { BUILT, autofillBuilt, builtButton, PAYS, showBuilt } from '../test/built.js';
import { answerModule } from '../test/checkout-fixture.js';

const SHARED = `${BUILT}/chunks/luhn.js`;

describe("the build's chunk of card checks shared by the paying chunk and the customer checks, unserved", () => {
  const logged: string[] = [];
  const real = console.error;
  const rejections: unknown[] = [];
  const rejected = (event: PromiseRejectionEvent) => void rejections.push(event.reason);
  before(async () => {
    await answerModule(SHARED, 'fail');
    console.error = (...args: unknown[]) => void logged.push(args.join(' '));
    window.addEventListener('unhandledrejection', rejected);
  });
  after(async () => {
    window.removeEventListener('unhandledrejection', rejected);
    console.error = real;
    await answerModule(SHARED, 'serve');
  });

  it('is the file the console and a click name, said once, whichever chunk needed it', async () => {
    // Customer fields to fill: their checks (chunks/checks.js) load as the form shows, as the paying chunk does.
    const form = await showBuilt({ customer: {} });
    await waitUntil(() => logged.length > 0, 'nothing said on the console');
    const line = new RegExp(`^<pay-form>: http://\\S+${SHARED.replaceAll('.', '\\.')} did not load: serve every file of the build, allowed by script-src`);
    expect(logged[0]).to.match(line);

    autofillBuilt(form, { ...PAYS, fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' });
    for (const press of [1, 2]) {
      const failed = oneEvent(form, 'pay-error');
      builtButton(form).click();
      const { detail } = (await failed) as CustomEvent<PayEventDetails['pay-error']>;
      expect(detail.code, `press ${press}`).to.equal('misconfigured');
      expect(`<pay-form>: ${detail.reason}`, `press ${press}`).to.match(line);
    }
    // Neither chunk that imports it named: the paying chunk's and the checks' failures are the one file's.
    expect(logged, logged.join('\n')).to.have.length(1);
    // Nor their own rejections left unhandled. A rejection is reported as a task after it: by now it would have been.
    await new Promise((resolve) => setTimeout(resolve));
    expect(rejections, 'unhandled rejections').to.deep.equal([]);
  });
});
