// A right-to-left page in a language the widget has no words for shows English: its sentences
// still read left to right, the full stop after the last word, and line up as the page does.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { button, errorText, field, message, mount, part, type } from '../test/harness.js';

/** Where the last character of `element`'s text shows, and the one before it. */
function lastTwo(element: Element): [DOMRect, DOMRect] {
  const text = [...element.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim())!;
  const end = text.textContent!.trimEnd().length;
  const at = (index: number): DOMRect => {
    const range = document.createRange();
    range.setStart(text, index);
    range.setEnd(text, index + 1);
    return range.getBoundingClientRect();
  };
  return [at(end - 2), at(end - 1)];
}

describe('English on a right-to-left page', () => {
  it('ends each sentence with its full stop after the last word, at the edge the page reads from', async () => {
    const form = await mount({}, {}, 'pay-form', await fixture(html`<div dir="rtl" lang="ar"></div>`));
    await type(field(form, 'number'), '4242');
    button(form).click();
    await waitUntil(() => message(form), 'no message');
    const sentences = { error: part(form, '#number-error'), message: part(form, '[part=message]'), banner: part(form, '[part=banner]') };
    expect(errorText(form, 'number')).to.equal('The card number is incomplete.');
    expect(message(form)).to.equal('Check the highlighted fields.');
    for (const [name, element] of Object.entries(sentences)) {
      const [word, stop] = lastTwo(element);
      expect(stop.left, `${name}: the full stop follows the last word`).to.be.at.least(word.right - 1);
    }
    // Under its field, the error keeps to the right, as the label above it does.
    const { right: fieldRight } = field(form, 'number').getBoundingClientRect();
    expect(lastTwo(sentences.error)[1].right).to.be.closeTo(fieldRight, 2);
  });

  it('reads the button and the hints in their own order: "Pay UAH 1.00", "3 digits on the back"', async () => {
    const form = await mount({}, {}, 'pay-form', await fixture(html`<div dir="rtl" lang="ar"></div>`));
    const hint = part(form, '#cvv-hint');
    for (const element of [button(form), hint]) expect(getComputedStyle(element).direction, element.textContent!).to.equal('ltr');
    // The words run left to right: the first stands left of the last.
    const range = (node: Element, at: number) => {
      const text = [...node.childNodes].find((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.trim())!;
      const picked = document.createRange();
      picked.setStart(text, at);
      picked.setEnd(text, at + 1);
      return picked.getBoundingClientRect();
    };
    const label = button(form).textContent!;
    expect(range(button(form), 0).left, label).to.be.below(range(button(form), label.length - 1).left);
  });

  for (const lang of ['he', 'ar']) {
    it(`writes the amount as its English words do, not as the page's language would: ${lang}`, async () => {
      const form = await mount({}, {}, 'pay-form', await fixture(html`<div dir="rtl" lang=${lang}></div>`));
      // Hebrew's format put the code after the number with marks around it, inside English words.
      const english = new Intl.NumberFormat('en', { style: 'currency', currency: 'UAH' }).format(100.5);
      expect(english).to.match(/^UAH\s100\.50$/);
      expect(button(form).textContent!.trim()).to.equal(`Pay ${english}`);
    });
  }
});
