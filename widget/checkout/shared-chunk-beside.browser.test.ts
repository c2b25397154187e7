// The build's paying chunk (chunks/paying.js) imports the card schemes' table and Luhn from a chunk
// it shares with the customer checks (chunks/luhn.js). Learnt of only from the paying chunk's code,
// that would be fetched once the paying chunk had come: two round trips to the companion one after
// the other. pay-form.js asks for both at once. This file's page loads the build
// (widget/test/built.ts); the dev server holds both files until the test lets them go.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { BUILT, autofillBuilt, builtButton, PAYS, showBuilt } from '../test/built.js';
import { answerModule } from '../test/checkout-fixture.js';

const PAYING = `${BUILT}/chunks/paying.js`;
const SHARED = `${BUILT}/chunks/luhn.js`;

describe("the build's paying chunk and the chunk of card checks it imports", () => {
  afterEach(() => Promise.all([answerModule(PAYING, 'serve'), answerModule(SHARED, 'serve')]));

  it('are both requested as the form shows, the shared one while the paying chunk is still on its way', async () => {
    await Promise.all([answerModule(PAYING, 'hold'), answerModule(SHARED, 'hold')]);
    // Its customer prefilled: no customer checks (chunks/checks.js), which import the shared chunk too.
    const form = await showBuilt();
    // Each answer is held at the server: one request could not have waited for the other's.
    const held = async () => (await Promise.all([answerModule(PAYING, 'hold'), answerModule(SHARED, 'hold')])).map((answer) => answer.held);
    // The requests are counted at the server, each look a round trip of its own: on a loaded
    // machine a few take longer than waitUntil's default second, so the test's own time bounds it.
    await waitUntil(async () => (await held()).every((count) => count > 0), 'the shared chunk was not asked for while the paying chunk was held', { timeout: 10_000 });
    expect(await held(), 'paying.js and luhn.js held at once, each asked for once').to.deep.equal([1, 1]);

    await Promise.all([answerModule(SHARED, 'serve'), answerModule(PAYING, 'serve')]);
    autofillBuilt(form, PAYS);
    const success = oneEvent(form, 'pay-success');
    builtButton(form).click();
    expect((await success).detail.orderId).to.be.a('string');
  });
});
