import type * as TypeScript from 'typescript';
import type { Plugin } from 'vite';

/** Collapses the white space of CSS (none around punctuation, one space elsewhere) and drops the 0 of 0.5. */
export const minifyCss = (text: string): string =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,>]) ?/g, '$1')
    .replace(/: /g, ':')
    .replace(/;}/g, '}')
    .replace(/\[([\w-]+~?=)'([\w-]+)'\]/g, '[$1$2]')
    .replace(/([\s:,(])0\.(?=\d)/g, '$1.')
    .trim();

/**
 * Drops line breaks and indentation next to tags (elsewhere a run of white space becomes one space)
 * and the quotes around plain attribute values that a space or `>` ends.
 */
export const minifyHtml = (text: string): string =>
  text
    .replace(/\s*\n\s*/g, (run, at: number) => (text[at - 1] === '>' || text[at + run.length] === '<' ? '' : ' '))
    .replace(/="([\w.#-]+)"(?=[\s>])/g, '=$1');

// What a `css` template without `${…}` becomes: the same CSSResult, but Lit's `css` tag (with its
// checks of interpolated values and their long messages) is left out of the bundle. Safe: the text
// is a literal of the widget's own source.
const STATIC_CSS = '__payformStaticCss';

/**
 * Shrinks the text of Lit's `css`, `html` and `svg` templates in one module's code (TypeScript or
 * the JavaScript tsc emits), found with the TypeScript parser so that nested templates and `${…}`
 * are left alone; a `css` template without `${…}` becomes `unsafeCSS` of its text. Undefined when
 * the module has no template.
 */
export async function minifyTemplateLiterals(code: string, fileName: string): Promise<string | undefined> {
  // Loaded here, not at the top: the Vite config is also Vitest's, which never builds.
  const { default: ts } = await import('typescript');
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true);
  const edits: [start: number, end: number, text: string][] = [];
  const visit = (node: TypeScript.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && /^(css|html|svg)$/.test(node.tag.text)) {
      const minify = node.tag.text === 'css' ? minifyCss : minifyHtml;
      const { template } = node;
      const literals = ts.isNoSubstitutionTemplateLiteral(template) ? [template] : [template.head, ...template.templateSpans.map((span) => span.literal)];
      for (const literal of literals) {
        // Raw text between the delimiters: ` or } before, ` or ${ after.
        const start = literal.getStart(source) + 1;
        const end = literal.end - (code[literal.end - 1] === '`' ? 1 : 2);
        edits.push([start, end, minify(code.slice(start, end))]);
      }
      if (node.tag.text === 'css' && ts.isNoSubstitutionTemplateLiteral(template)) {
        edits.push([node.tag.getStart(source), node.tag.end, `${STATIC_CSS}(`], [template.end, template.end, ')']);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!edits.length) return undefined;
  const out = applyEdits(code, edits);
  return out.includes(`${STATIC_CSS}(`) ? `${out}\nimport { unsafeCSS as ${STATIC_CSS} } from 'lit';\n` : out;
}

/** Replaces each [start, end) of code by its text; the spans do not overlap. */
export const applyEdits = (code: string, edits: [start: number, end: number, text: string][]): string =>
  edits.sort((a, b) => b[0] - a[0]).reduce((out, [start, end, text]) => out.slice(0, start) + text + out.slice(end), code);

/** Build-only: {@link minifyTemplateLiterals} over the widget's sources as Vite bundles them. */
export function minifyTemplates(): Plugin {
  return {
    name: 'payform:minify-lit-templates',
    enforce: 'pre',
    apply: 'build',
    async transform(code, id) {
      if (!/\/widget\/.*\.ts$/.test(id)) return null;
      const out = await minifyTemplateLiterals(code, id);
      return out === undefined ? null : { code: out, map: null };
    },
  };
}
