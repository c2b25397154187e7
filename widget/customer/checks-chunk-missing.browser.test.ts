// A session that asks for customer fields fetches their checks (checks.ts) as the form shows them.
// A page that cannot load that chunk (offline, or a server without the widget's chunks/) goes on:
// a value is only required, and the companion's own checks judge it on payment. The console names
// the missing chunk, as it does the paying and test-card chunks. This file's page has not loaded
// the chunk, and its one test fails it (a page that failed to load a module keeps failing).
import { expect, waitUntil } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { autofill, record, show, watchConsoleErrors } from '../test/harness.js';

const CHECKS = '/widget/customer/checks.ts';

describe('<pay-form> whose customer-field checks cannot load', () => {
  let logged: ReturnType<typeof watchConsoleErrors>;
  afterEach(async () => {
    logged.restore();
    await answerModule(CHECKS, 'serve');
  });

  it('judges a typed value as only required, and the console names the missing chunk, once', async () => {
    logged = watchConsoleErrors();
    await answerModule(CHECKS, 'fail');
    const form = await show({ customer: {} });
    await waitUntil(() => logged.length > 0, 'nothing said on the console', { timeout: 5000 });
    expect(logged.length, logged.join('\n')).to.equal(1);
    expect(logged[0]).to.match(/^<pay-form>: http:\/\/\S+\/widget\/customer\/checks\.ts did not load: serve every file of the build, allowed by script-src/);

    // Typed on: judged without the chunk, not left pending, and the chunk is not asked for again.
    const changes = record(form, 'pay-change');
    autofill(form, { email: 'olena@example.com' });
    await waitUntil(() => changes.some((change) => change.field === 'email'), 'the e-mail was never judged');
    expect(changes.find((change) => change.field === 'email')).to.deep.include({ complete: true, valid: true, error: undefined });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged.length, 'said again').to.equal(1);
  });
});
