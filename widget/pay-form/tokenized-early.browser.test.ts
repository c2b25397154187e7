// In tokenize mode the chunk that sends the card to the tokenizer (tokenized.ts) is fetched as the
// form shows, beside what paying takes: fetched at the click, it was one more round trip before
// every payment (2 s on a 3G connection). Alone in its file: a page that has loaded a module once
// would find it already there.
import { expect, waitUntil } from '@open-wc/testing';
import { mount } from '../test/harness.js';

const fetched = () => performance.getEntriesByType('resource').some((entry) => new URL(entry.name).pathname.endsWith('/pay-form/tokenized.ts'));

describe('a tokenize-mode form', () => {
  it('fetches its tokenizer chunk as it shows, before any click', async () => {
    expect(fetched(), 'not fetched before the form').to.equal(false);
    await mount({ merchant: 'tokenize' });
    await waitUntil(fetched, 'the tokenizer chunk is fetched before the customer pays');
  });
});
