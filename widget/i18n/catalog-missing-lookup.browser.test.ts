// A page whose catalog cannot load shows English, marked so: a card verification's words too,
// not its own language's inside English. This file's page fails the German catalog: keep this
// the only test here (a page that failed to load a module keeps failing).
import { expect } from '@open-wc/testing';
import { answerModule } from '../test/checkout-fixture.js';
import { button, mount, part } from '../test/harness.js';

const GERMAN = '/widget/i18n/de.ts';

describe('a card verification whose page’s catalog cannot load', () => {
  afterEach(() => answerModule(GERMAN, 'serve'));

  it('says its words in English, marked English, the verification’s own included', async () => {
    await answerModule(GERMAN, 'fail');
    const form = await mount({ method: 'lookup', amount: 100, customer_id: 'cust-widget' }, { lang: 'de' });
    expect(button(form).textContent!.trim()).to.equal('Save card');
    expect(part(form, '[part=note]').textContent).to.match(/Nothing is charged/);
    expect(button(form).matches(':lang(en)') && part(form, '[part=note]').matches(':lang(en)'), 'marked English').to.equal(true);
  });
});
