import { describe, expect, it } from 'vitest';
import { minifyCss, minifyHtml, minifyTemplates } from './minify-templates.js';

describe('minifying Lit templates', () => {
  it('collapses CSS around punctuation and unquotes plain attribute selectors', () => {
    expect(minifyCss(`
      /* a comment */
      [part='input']:focus,
      .row > * {
        box-shadow: 0 0 0 3px color-mix(in srgb, red 40%, #0000);
        font: 15px/1.4 system-ui, sans-serif;
      }
    `)).toBe('[part=input]:focus,.row>*{box-shadow:0 0 0 3px color-mix(in srgb,red 40%,#0000);font:15px/1.4 system-ui,sans-serif}');
  });

  it('drops line breaks next to tags but keeps the space between attributes and words', () => {
    expect(minifyHtml(`<div part="field">
      <label for="x">Card
        number</label>
      <input id="x" type="text"
        autocomplete="cc-number" aria-describedby="x-error x-hint">
    </div>`)).toBe('<div part=field><label for=x>Card number</label><input id=x type=text autocomplete=cc-number aria-describedby="x-error x-hint"></div>');
  });

  it('keeps the quotes a self-closing tag needs', () => {
    expect(minifyHtml('<rect fill="none"/>')).toBe('<rect fill="none"/>');
  });

  it('rewrites only css/html/svg templates, and leaves ${…} and nested templates intact', async () => {
    const plugin = minifyTemplates();
    const source = [
      "const a = html`<p>\n  ${b ? html`<span class=\"x\">\n ${c}\n</span>` : ''}\n</p>`;",
      'const s = css`:host {\n  display: block;\n}`;',
      'const t = `keep\n   this`;',
    ].join('\n');
    const transform = plugin.transform as (code: string, id: string) => Promise<{ code: string }>;
    const { code } = await transform.call({}, source, '/repo/widget/x.ts');
    expect(code).toBe(
      ["const a = html`<p>${b ? html`<span class=x>${c}</span>` : ''}</p>`;", 'const s = css`:host{display:block}`;', 'const t = `keep\n   this`;'].join('\n'),
    );
  });
});
