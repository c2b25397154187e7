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
    expect(out).toContain('}\nX.styles = __payformStaticCss(`:host{display:block}`);');
    expect(out).toContain('return html`<div part=field><label for=x>${this.label}</label></div>`;');
    expect(out).toContain("import { unsafeCSS as __payformStaticCss } from 'lit';");
    expect(readFileSync(join(dir, 'plain.js'), 'utf8')).toBe(plain);
  });

  it("get tsc's static blocks moved after the class, where a bundler targeting Safari 16.0 lowers no #private member", async () => {
    dir = mkdtempSync(join(tmpdir(), 'payform-minify-lib-'));
    // What tsc emits under useDefineForClassFields: false for static properties, beside an
    // ES private member; and blocks that cannot leave their class.
    const component = [
      'export class Y extends HTMLElement {',
      "    static { this.shadowRootOptions = { mode: 'open', delegatesFocus: true }; }",
      '    static { this.properties = {',
      '        session: {},',
      '    }; }',
      '    #run = 0;',
      '    bump() { return ++this.#run; }',
      '}',
      'export class Z extends HTMLElement {',
      '    static { this.self = this; }',
      '}',
      'export class W extends HTMLElement {',
      '    static { this.a = 1; this.b = 2; }',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'y.js'), component);

    expect(await minifyLibTemplates(dir)).toBe(1);

    const out = readFileSync(join(dir, 'y.js'), 'utf8');
    expect(out).toContain("    bump() { return ++this.#run; }\n}\nY.shadowRootOptions = { mode: 'open', delegatesFocus: true };\nY.properties = {");
    expect(out).not.toContain('static { this.properties');
    expect(out).toContain('    static { this.self = this; }');
    expect(out).toContain('    static { this.a = 1; this.b = 2; }');
    // esbuild, as Vite 7 runs it for its default target, keeps the class's #private member.
    const { transform } = await import('esbuild');
    const lowered = await transform(out, { target: ['chrome107', 'edge107', 'firefox104', 'safari16'], format: 'esm' });
    expect(lowered.code.split('export class W')[0]).toContain('this.#run');
    expect(lowered.code).not.toMatch(/WeakMap/);
  });
});
