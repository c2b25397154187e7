import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { minifyLibTemplates } from './minify-lib.js';

describe("the package's modules (dist/lib) after tsc", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('get their templates shrunk as the bundle does, in every folder, and nothing else touched', async () => {
    dir = mkdtempSync(join(tmpdir(), 'payform-minify-lib-'));
    mkdirSync(join(dir, 'pay-form'));
    // What tsc emits for a component: its templates as written, JSDoc kept.
    const component = [
      "import { css, html } from 'lit';",
      '/** A form. */',
      'export class X extends HTMLElement {',
      '    static { this.styles = css`',
      '      :host {',
      '        display: block;',
      '      }`; }',
      '    render() {',
      '        return html`<div part="field">',
      '          <label for="x">${this.label}</label>',
      '        </div>`;',
      '    }',
      '}',
      '',
    ].join('\n');
    const plain = 'export const answer = `keep\n   this`;\n';
    writeFileSync(join(dir, 'pay-form', 'x.js'), component);
    writeFileSync(join(dir, 'plain.js'), plain);
    writeFileSync(join(dir, 'x.d.ts'), 'export declare const s: string;\n');

    expect(await minifyLibTemplates(dir)).toBe(1);

    const out = readFileSync(join(dir, 'pay-form', 'x.js'), 'utf8');
    expect(out).toContain('static { this.styles = __payformStaticCss(`:host{display:block}`); }');
    expect(out).toContain('return html`<div part=field><label for=x>${this.label}</label></div>`;');
    expect(out).toContain("import { unsafeCSS as __payformStaticCss } from 'lit';");
    expect(readFileSync(join(dir, 'plain.js'), 'utf8')).toBe(plain);
  });
});
