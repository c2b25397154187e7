import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { CSSResult } from 'lit';
import { autofill, button, card, field, mount, part, press, type } from '../test/harness.js';
import type { PayEventDetails } from '../events.js';
import type { PayForm } from './pay-form.js';

/**
 * The element's styles as a browser that lacks `functions` reads them: each such function unknown,
 * its @supports false. From their source text: Chromium writes a rule back without the values of a
 * shorthand that holds a var().
 */
function readAsBefore(form: PayForm, functions: RegExp): void {
  form.shadowRoot!.adoptedStyleSheets = (form.constructor as typeof PayForm).elementStyles.map((style) => {
    const older = new CSSStyleSheet();
    older.replaceSync((style as CSSResult).cssText.replaceAll(functions, 'unknown-function('));
    return older;
  });
}

describe('theming', () => {
  it('takes colours, radius and font from --pay-form-* properties', async () => {
    const form = await mount();
    form.style.setProperty('--pay-form-color-accent', 'rgb(10, 120, 60)');
    form.style.setProperty('--pay-form-color-on-accent', 'rgb(255, 255, 0)');
    form.style.setProperty('--pay-form-radius', '2px');
    form.style.setProperty('--pay-form-font', '13px/1.2 monospace');
    const style = getComputedStyle(button(form));
    expect(style.backgroundColor).to.equal('rgb(10, 120, 60)');
    expect(style.color).to.equal('rgb(255, 255, 0)');
    expect(getComputedStyle(field(form, 'number')).borderTopLeftRadius).to.equal('2px');
    expect(getComputedStyle(field(form, 'number')).fontFamily).to.equal('monospace');
  });

  it('writes inputs at 16px at least, where iOS Safari does not zoom into a field it focuses', async () => {
    const form = await mount();
    expect([getComputedStyle(form).fontSize, getComputedStyle(field(form, 'number')).fontSize]).to.deep.equal(['15px', '16px']);
    form.style.setProperty('--pay-form-font', '18px/1.4 system-ui');
    expect(getComputedStyle(field(form, 'number')).fontSize, 'larger stays larger').to.equal('18px');
  });

  it('grows with the reader’s text size (WCAG 1.4.4), never smaller than 15px on a page with a small root font', async () => {
    const form = await mount();
    const root = document.documentElement.style;
    try {
      // A browser's text size set twice as large, as rem sees it: the page's own text doubles, so does the form's.
      root.fontSize = '200%';
      expect([getComputedStyle(form).fontSize, getComputedStyle(field(form, 'number')).fontSize, getComputedStyle(button(form)).fontSize]).to.deep.equal(['30px', '30px', '30px']);
      // A page that sets its root font to 10px (62.5%) for its own rems.
      root.fontSize = '62.5%';
      expect(getComputedStyle(form).fontSize).to.equal('15px');
    } finally {
      root.fontSize = '';
    }
  });

  // Editors, Storybook and the Lit analyzer offer the parts its manifest lists: each one rendered.
  it('lists every part it renders in its custom-elements manifest', async () => {
    const form = await mount({ customer: {} });
    const rendered = new Set([...form.shadowRoot!.querySelectorAll('[part]')].flatMap((element) => element.getAttribute('part')!.split(/\s+/)));
    expect([...rendered]).to.include.members(['field-email', 'input-phone', 'input-cvv']);
    const manifest = (await (await fetch('/widget/dist/custom-elements.json')).json()) as { modules: { declarations?: { tagName?: string; cssParts?: { name: string }[] }[] }[] };
    const element = manifest.modules.flatMap((module) => module.declarations ?? []).find((declaration) => declaration.tagName === 'pay-form');
    const listed = (element?.cssParts ?? []).map((cssPart) => cssPart.name);
    expect([...rendered].filter((name) => !listed.includes(name))).to.deep.equal([]);
  });

  // Editors and the framework wrappers made from the manifest type a listener's event by it: each
  // one as events.ts declares it, not an untyped name.
  it('types every event of both elements in its custom-elements manifest as events.ts declares it', async () => {
    type Declaration = { tagName?: string; events?: { name: string; type?: { text: string } }[] };
    const manifest = (await (await fetch('/widget/dist/custom-elements.json')).json()) as { modules: { declarations?: Declaration[] }[] };
    const declarations = manifest.modules.flatMap((module) => module.declarations ?? []);
    const typed = (tag: string) => (declarations.find((declaration) => declaration.tagName === tag)?.events ?? []).map(({ name, type }) => [name, type?.text]);
    const told = (names: (keyof PayEventDetails)[]) => names.map((name) => [name, `CustomEvent<PayEventDetails['${name}']>`]);
    const buttonEvents: (keyof PayEventDetails)[] = ['pay-ready', 'pay-redirect', 'pay-success', 'pay-failure', 'pay-error'];
    expect(typed('pay-form')).to.have.deep.members(told([...buttonEvents, 'pay-change', 'pay-brand-change', 'pay-submit']));
    expect(typed('pay-button')).to.have.deep.members(told(buttonEvents));
  });

  it('lets the page style its parts', async () => {
    const style = await fixture(html`<style>
      pay-form::part(input) { border-color: rgb(1, 2, 3); }
      pay-form::part(label) { text-transform: uppercase; }
      pay-form::part(button) { letter-spacing: 2px; }
      pay-form::part(error) { font-style: italic; padding: 4px 8px; border: 1px solid rgb(200, 0, 0); }
    </style>`);
    try {
      const form = await mount();
      // An error box with nothing to say takes no room and shows nothing, the page's padding and border included.
      const empty = part(form, '#number-error').getBoundingClientRect();
      expect([empty.width, empty.height]).to.deep.equal([0, 0]);
      expect(getComputedStyle(field(form, 'number')).borderTopColor).to.equal('rgb(1, 2, 3)');
      expect(getComputedStyle(part(form, '[part=label]')).textTransform).to.equal('uppercase');
      expect(getComputedStyle(button(form)).letterSpacing).to.equal('2px');
      await type(field(form, 'number'), '4242');
      await press('Tab');
      expect(getComputedStyle(part(form, '#number-error')).fontStyle).to.equal('italic');
    } finally {
      style.remove();
    }
  });

  it('lets the page style one field by its own parts', async () => {
    const style = await fixture(html`<style>
      pay-form::part(input-number) { letter-spacing: 3px; }
      pay-form::part(field-cvv) { max-width: 120px; }
    </style>`);
    try {
      const form = await mount();
      expect((['number', 'exp', 'cvv'] as const).map((name) => getComputedStyle(field(form, name)).letterSpacing)).to.deep.equal(['3px', 'normal', 'normal']);
      const fields = [...form.shadowRoot!.querySelectorAll<HTMLElement>('[part~=field]')];
      expect(fields.map((each) => getComputedStyle(each).maxWidth)).to.deep.equal(fields.map((each) => (each.querySelector('#cvv') ? '120px' : 'none')));
    } finally {
      style.remove();
    }
  });

  it('keeps colours it can read where light-dark() is unknown (Safari before 17.5): bordered fields, an accent button, the scheme followed', async () => {
    const form = await mount();
    readAsBefore(form, /light-dark\(/g);
    const number = getComputedStyle(field(form, 'number'));
    // The system's text and background, the border mixed from the text as ever.
    expect([number.borderTopStyle, number.borderTopColor, number.backgroundColor]).to.deep.equal(['solid', 'color(srgb 0 0 0 / 0.55)', 'rgb(255, 255, 255)']);
    expect(getComputedStyle(button(form)).backgroundColor).to.equal('rgb(51, 71, 214)');
    // A dark page gets light text on a dark field, not near-black on its dark background.
    form.style.colorScheme = 'dark';
    expect([getComputedStyle(part(form, '[part=label]')).color, getComputedStyle(field(form, 'number')).backgroundColor]).to.deep.equal(['rgb(255, 255, 255)', 'rgb(18, 18, 18)']);
  });

  it('shows a turning ring while it waits, where color-mix() is unknown too (Chrome before 111, Safari before 16.2)', async () => {
    const form = await mount();
    readAsBefore(form, /(light-dark|color-mix)\(/g);
    form.phase = 'confirming';
    await form.updateComplete;
    const spinner = part(form, '.spinner');
    const style = getComputedStyle(spinner);
    expect([style.borderTopStyle, style.borderTopWidth, style.borderTopColor]).to.deep.equal(['solid', '3px', 'rgb(51, 71, 214)']);
    expect([style.borderRightStyle, style.borderRightColor]).to.deep.equal(['solid', 'rgb(130, 132, 136)']);
  });

  // docs/widget.md names Chrome 103 the oldest: the rotate, translate and scale properties came in 104.
  it('moves and turns things by transform, which the oldest browser it names knows', async () => {
    const form = await mount({}, {}, 'pay-form');
    const sources = (form.constructor as typeof PayForm).elementStyles.map((style) => (style as CSSResult).cssText);
    expect(sources.join('\n').match(/[^-\w](rotate|translate|scale)\s*:[^;]*/g) ?? []).to.deep.equal([]);
  });

  it("keeps the brand icon centred in the number field under a page's own ::part(icon) transform", async () => {
    const style = document.createElement('style');
    style.textContent = 'pay-form::part(icon) { transform: scale(1.2) }';
    document.head.append(style);
    try {
      const form = await mount();
      const middle = (rect: DOMRect) => rect.top + rect.height / 2;
      expect(Math.abs(middle(part(form, '.control [part=icon]').getBoundingClientRect()) - middle(field(form, 'number').getBoundingClientRect()))).to.be.below(1);
    } finally {
      style.remove();
    }
  });

  it('follows the colour scheme: light by default, dark when the page or element says so', async () => {
    const form = await mount();
    const background = (): string => getComputedStyle(field(form, 'number')).backgroundColor;
    expect(background()).to.equal('rgb(255, 255, 255)');
    form.style.colorScheme = 'dark';
    expect(background()).to.equal('rgb(29, 32, 39)');
    expect(getComputedStyle(form).color).to.equal('rgb(233, 235, 240)');
  });

  it('keeps focus visible in forced colours, where the ring is dropped', async () => {
    const form = await mount();
    await emulateMedia({ forcedColors: 'active' });
    try {
      field(form, 'number').focus();
      const style = getComputedStyle(field(form, 'number'));
      expect(style.boxShadow, 'forced colours drop the ring').to.equal('none');
      expect(style.outlineStyle).to.equal('solid');
      expect(style.outlineWidth).to.equal('2px');
    } finally {
      await emulateMedia({ forcedColors: 'none' });
    }
  });

  it('outlines the pay button in forced colours, which paint its border, keeping its size', async () => {
    const form = await mount();
    await emulateMedia({ forcedColors: 'active' });
    try {
      const style = getComputedStyle(button(form));
      expect([style.borderTopStyle, style.borderTopWidth]).to.deep.equal(['solid', '1px']);
      expect(style.borderTopColor, 'painted, not transparent').not.to.equal('rgba(0, 0, 0, 0)');
      // 12 px above and below the text, as before it had a border: 11 px of padding and the border.
      expect(button(form).getBoundingClientRect().height).to.equal(parseFloat(style.lineHeight) + 24);
    } finally {
      await emulateMedia({ forcedColors: 'none' });
    }
  });

  it('marks an invalid field in forced colours by more than its colour, which they paint over, keeping its size', async () => {
    const form = await mount();
    await type(field(form, 'number'), '4242');
    await press('Tab');
    await form.updateComplete;
    expect(field(form, 'number').getAttribute('aria-invalid')).to.equal('true');
    field(form, 'exp').blur();
    const border = (name: 'number' | 'cvv'): string[] => {
      const style = getComputedStyle(field(form, name));
      return [style.borderTopStyle, style.borderTopWidth, style.borderTopColor];
    };
    await emulateMedia({ forcedColors: 'active' });
    try {
      expect(border('number'), 'the invalid number looks unlike the valid security code').not.to.deep.equal(border('cvv'));
      expect(border('number')[0]).to.equal('double');
      // As tall as a valid field: the wider border takes its room from the padding.
      expect(field(form, 'number').getBoundingClientRect().height).to.equal(field(form, 'cvv').getBoundingClientRect().height);
    } finally {
      await emulateMedia({ forcedColors: 'none' });
    }
  });

  it('turns the spinner visibly in forced colours: a ring of one colour would show no turn', async () => {
    const form = await fixture<PayForm>(html`<pay-form></pay-form>`);
    await form.updateComplete;
    await emulateMedia({ forcedColors: 'active' });
    try {
      const style = getComputedStyle(part(form, '.spinner'));
      expect(style.borderTopColor, 'its arc unlike the rest of the ring').not.to.equal(style.borderRightColor);
      expect([style.borderRightColor, style.borderBottomColor]).to.deep.equal([style.borderLeftColor, style.borderLeftColor]);
    } finally {
      await emulateMedia({ forcedColors: 'none' });
    }
  });

  it('holds the spinner still for a reader who asks for reduced motion, and turns it otherwise', async () => {
    const form = await fixture<PayForm>(html`<pay-form></pay-form>`);
    await form.updateComplete;
    const spinning = (): number => part(form, '.spinner').getAnimations().length;
    expect(spinning(), 'no preference').to.equal(1);
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(spinning(), 'reduced motion').to.equal(0);
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('fits a narrow column in a long language: no field wider than the form', async () => {
    const column = await fixture<HTMLElement>(html`<div style="width: 240px"></div>`);
    const form = await mount({}, { lang: 'de' }, 'pay-form', column);
    await form.updateComplete;
    const right = form.getBoundingClientRect().right;
    for (const input of form.shadowRoot!.querySelectorAll('[part~=input]')) expect(input.getBoundingClientRect().right).to.be.at.most(right);
    expect(form.scrollWidth).to.be.at.most(240);
  });

  it('keeps every word inside a column narrower than its longest one (WCAG 1.4.10): none spills past the form', async () => {
    // A phone's 320 px less a shop's margins, in the shop's own 16 px font: "Sicherheitscode"
    // (the security code's label) is wider than its half of the row.
    const column = await fixture<HTMLElement>(html`<div style="width: 200px; --pay-form-font: 16px/1.5 system-ui, sans-serif"></div>`);
    const form = await mount({}, { lang: 'de' }, 'pay-form', column);
    button(form).click();
    await form.updateComplete;
    const { left, right } = form.getBoundingClientRect();
    const spilt: string[] = [];
    const walker = document.createTreeWalker(form.shadowRoot!, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      const box = range.getBoundingClientRect();
      if (box.width && (box.right > right + 0.5 || box.left < left - 0.5)) spilt.push(text.textContent!.trim());
    }
    for (const input of form.shadowRoot!.querySelectorAll('[part~=input]')) if (input.getBoundingClientRect().right > right + 0.5) spilt.push(`#${input.id}`);
    expect(spilt).to.deep.equal([]);
  });

  it('keeps the test cards inside a narrow column in large text: a card’s outcome goes under its number', async () => {
    // Text twice its size on a phone's column: "4000 0000 0000 0069" beside "Karte abgelaufen" is wider.
    const column = await fixture<HTMLElement>(html`<div style="width: 256px; --pay-form-font: 32px/1.4 system-ui, sans-serif"></div>`);
    const form = await mount({}, { lang: 'de' }, 'pay-form', column);
    await waitUntil(() => form.shadowRoot!.querySelector('[part=test-cards]'), 'no test cards');
    part<HTMLDetailsElement>(form, '[part=test-cards]').open = true;
    const { right } = form.getBoundingClientRect();
    const wider = [...form.shadowRoot!.querySelectorAll('[part=test-cards] button')].filter((card) => card.getBoundingClientRect().right > right + 0.5);
    expect(wider.map((card) => card.textContent)).to.deep.equal([]);
  });

  it('reflects processing, invalid and complete for page styles', async () => {
    const form = await mount();
    await type(field(form, 'number'), '4242');
    await press('Tab');
    await form.updateComplete;
    expect(form.hasAttribute('invalid')).to.equal(true);
    expect(form.hasAttribute('complete')).to.equal(false);
    autofill(form, card('4242424242424242'));
    await form.updateComplete;
    expect(form.hasAttribute('invalid')).to.equal(false);
    expect(form.hasAttribute('complete')).to.equal(true);
    const success = oneEvent(form, 'pay-success');
    button(form).click();
    await form.updateComplete;
    expect(form.hasAttribute('processing')).to.equal(true);
    await success;
    await form.updateComplete;
    expect(form.hasAttribute('processing')).to.equal(false);
  });
});
