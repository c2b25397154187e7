// A page that copied pay-form.js alone, without the chunks/ folder beside it: every chunk the
// widget loads on demand is missing, the one that works out what went wrong (diagnose.ts) and
// English's specific messages among them. The form still shows, and the page hears that it is
// set up wrong — not that the customer is offline — and the console says which file is missing
// and what to deploy, once each. This file's page fails them from the start (a page that failed
// to load a module keeps failing).
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, card, message, OLENA, pressedMisconfigured, show, watchConsoleErrors } from '../test/harness.js';

const CHUNKS = ['/widget/checkout/paying.ts', '/widget/checkout/diagnose.ts', '/widget/customer/checks.ts', '/widget/pay-form/test-cards.ts', '/widget/i18n/en-messages.ts'];

/** The console's line for a chunk at `path` that did not load. */
const unservedLine = (path: string): RegExp =>
  new RegExp(`^<pay-(form|button)>: http://\\S+${path.replaceAll('.', '\\.')}\\S* did not load: serve every file of the build, allowed by script-src`);

describe('a page that serves pay-form.js without its chunks', () => {
  let logged: ReturnType<typeof watchConsoleErrors>;
  before(() => Promise.all(CHUNKS.map((path) => answerModule(path, 'fail'))));
  after(() => Promise.all(CHUNKS.map((path) => answerModule(path, 'serve'))));
  beforeEach(() => (logged = watchConsoleErrors()));
  afterEach(() => logged.restore());

  it('shows the form; a click is misconfigured, naming the paying chunk, and each missing chunk is said once', async () => {
    const form = await show({ customer: {} });
    autofill(form, { ...card('4242424242424242'), ...OLENA });
    await pressedMisconfigured(form, (detail) => expect(`<pay-form>: ${detail.reason}`).to.match(unservedLine('/widget/checkout/paying.ts')));
    await form.updateComplete;
    expect(message(form)).to.equal('Something went wrong. Please try again in a moment.');
    // Those it asked for: the test card list comes with the paying chunk, and is never asked for.
    await waitUntil(() => logged.length >= 2, 'not every missing chunk was said');
    for (const path of ['paying.ts', 'checks.ts']) {
      expect(logged.filter((line) => line.includes(`/${path}`)), path).to.have.length(1);
    }
    expect(logged.every((line) => unservedLine('/widget/').test(line)), logged.join('\n')).to.equal(true);
  });

  it('tells a session read the companion refused as misconfigured too: what would say why is missing', async () => {
    const payButton = document.createElement('pay-button');
    payButton.session = 'cs_no-such-session';
    const failed = oneEvent(payButton, 'pay-error');
    await fixture(payButton);
    const { detail } = await failed;
    expect(detail.code).to.equal('misconfigured');
    expect(`<pay-button>: ${detail.reason}`).to.match(unservedLine('/widget/checkout/diagnose.ts'));
    expect(logged.filter((line) => line.includes('/diagnose.ts'))).to.have.length(1);
  });
});
