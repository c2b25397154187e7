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
        opacity: 0.65;
        animation: spin 0.8s linear, fade 10.5s;
      }
    `)).toBe('[part=input]:focus,.row>*{box-shadow:0 0 0 3px color-mix(in srgb,red 40%,#0000);font:15px/1.4 system-ui,sans-serif;opacity:.65;animation:spin .8s linear,fade 10.5s}');
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

  const transform = minifyTemplates().transform as (code: string, id: string) => Promise<{ code: string }>;

  it('rewrites only css/html/svg templates, and leaves ${…} and nested templates intact', async () => {
    const source = [
      "const a = html`<p>\n  ${b ? html`<span class=\"x\">\n ${c}\n</span>` : ''}\n</p>`;",
      'const s = css`:host {\n  display: ${d};\n}`;',
      'const t = `keep\n   this`;',
    ].join('\n');
    const { code } = await transform.call({}, source, '/repo/widget/x.ts');
    expect(code).toBe(
      ["const a = html`<p>${b ? html`<span class=x>${c}</span>` : ''}</p>`;", 'const s = css`:host{display:${d}}`;', 'const t = `keep\n   this`;'].join('\n'),
    );
  });

  it("makes a css template without ${…} Lit's unsafeCSS of its text, imported under a name of its own", async () => {
    const { code } = await transform.call({}, "import { css } from 'lit';\nconst s = css`:host {\n  display: block;\n}`;", '/repo/widget/x.ts');
    expect(code).toBe(
      "import { css } from 'lit';\nconst s = __payformStaticCss(`:host{display:block}`);\nimport { unsafeCSS as __payformStaticCss } from 'lit';\n",
    );
  });
});
