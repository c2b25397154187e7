/**
 * Build step after `tsc -p widget/tsconfig.lib.json`: the templates of widget/dist/lib, the modules
 * a merchant's bundler takes through `import '@payform/widget'`, shrunk as the bundle's are. tsc
 * keeps them as written (indentation, line breaks, quotes), which no minifier may touch, so
 * without this a merchant's build of the package weighed more than dist/pay-form.js.
 * And tsc's static blocks moved after their class (see {@link staticBlocksAfterClass}).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TypeScript from 'typescript';
import { applyEdits, minifyTemplateLiterals } from './minify-templates.js';

/**
 * `static { this.name = value; }`, as tsc writes a static property under `useDefineForClassFields:
 * false` (which Lit's reactive properties need), moved after the class as `Class.name = value;`:
 * the same assignments in the same order, with nothing in between. A static block is newer than
 * the rest of the class: a merchant's bundler targeting Safari before 16.4 (Vite 7's default,
 * esbuild) lowers it, and with it every `#private` member of the class into WeakMaps and helpers,
 * about 0.35 KB gzip more; a static field instead costs older targets (Vite 6's) a helper of their
 * own. Only a named top-level class all of whose static blocks are such one assignment, with no
 * `this`, `super` or `#private` in the value; any other class is left as it is. Undefined when
 * nothing moved.
 */
export async function staticBlocksAfterClass(code: string, fileName: string): Promise<string | undefined> {
  const { default: ts } = await import('typescript');
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true);
  const edits: [start: number, end: number, text: string][] = [];
  const selfFree = (node: TypeScript.Node): boolean =>
    node.kind !== ts.SyntaxKind.ThisKeyword && node.kind !== ts.SyntaxKind.SuperKeyword && !ts.isPrivateIdentifier(node) && !ts.forEachChild(node, (child) => !selfFree(child) || undefined);
  const assignment = (block: TypeScript.ClassStaticBlockDeclaration): [name: string, value: TypeScript.Expression] | undefined => {
    const [statement, ...more] = block.body.statements;
    const expression = statement && !more.length && ts.isExpressionStatement(statement) ? statement.expression : undefined;
    if (!expression || !ts.isBinaryExpression(expression) || expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
    const { left, right } = expression;
    const onThis = ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword && ts.isIdentifier(left.name);
    return onThis && selfFree(right) ? [left.name.text, right] : undefined;
  };
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || !statement.name) continue;
    const blocks = statement.members.filter(ts.isClassStaticBlockDeclaration);
    const moved = blocks.map(assignment);
    const otherStatics = statement.members.some((member) => ts.isPropertyDeclaration(member) && member.initializer && member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword));
    if (!blocks.length || otherStatics || moved.some((found) => !found)) continue;
    for (const block of blocks) edits.push([block.getFullStart(), block.end, '']);
    const after = moved.map((found) => `\n${statement.name!.text}.${found![0]} = ${found![1].getText(source)};`).join('');
    edits.push([statement.end, statement.end, after]);
  }
  return edits.length ? applyEdits(code, edits) : undefined;
}

export async function minifyLibTemplates(dir: string): Promise<number> {
  let rewritten = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const path = join(entry.parentPath, entry.name);
    const code = readFileSync(path, 'utf8');
    const templated = (await minifyTemplateLiterals(code, path)) ?? code;
    const out = (await staticBlocksAfterClass(templated, path)) ?? templated;
    if (out === code) continue;
    writeFileSync(path, out);
    rewritten++;
  }
  return rewritten;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await minifyLibTemplates(fileURLToPath(new URL('../dist/lib/', import.meta.url)));
}
