// Test mode's card list is a chunk of its own (test-cards.ts), fetched as a test session's form
// shows. A page that cannot load it: this file's page has not loaded it, and its one test fails it
// (a page that failed to load a module keeps failing).
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, button, card, mount, watchConsoleErrors } from '../test/harness.js';

const TEST_CARDS = '/widget/pay-form/test-cards.ts';

describe("a test session's form when its card list cannot load", () => {
  let logged: ReturnType<typeof watchConsoleErrors>;
  const rejections: unknown[] = [];
  const rejected = (event: PromiseRejectionEvent) => void rejections.push(event.reason);
  beforeEach(() => window.addEventListener('unhandledrejection', rejected));
  afterEach(async () => {
    window.removeEventListener('unhandledrejection', rejected);
    logged.restore();
    await answerModule(TEST_CARDS, 'serve');
  });

  it('shows and pays without it, names the missing chunk on the console, and leaves no rejection unhandled', async () => {
    logged = watchConsoleErrors();
    await answerModule(TEST_CARDS, 'fail');
    const form = await mount();
    await waitUntil(() => logged.length > 0, 'nothing said on the console');
    expect(logged, logged.join('\n')).to.have.length(1);
    expect(logged[0]).to.match(/^<pay-form>: http:\/\/\S+\/widget\/pay-form\/test-cards\.ts did not load: serve every file of the build, allowed by script-src/);
    expect(form.shadowRoot!.querySelector('[part=test-cards]')).to.equal(null);

    autofill(form, card('4242424242424242'));
    const success = oneEvent(form, 'pay-success');
    button(form).click();
    expect((await success).detail.orderId).to.be.a('string');
    // A rejection is reported as a task after it: by now it would have been.
    await new Promise((resolve) => setTimeout(resolve));
    expect(rejections, 'unhandled rejections').to.deep.equal([]);
    expect(logged, logged.join('\n')).to.have.length(1);
  });
});
