// Copies a package's guides, and the files they give to copy, into its `docs/` as it is packed
// (each package's `prepack`), so a merchant reads them where the package is installed. A guide's
// relative links are written for the repository's docs/; in node_modules they must point where
// their target lands: a guide another @payform package ships → beside it in
// node_modules/@payform, a package's README → that package, anything not shipped (the
// repository's README, performance.md, images) → the repository on GitHub.
//
// Usage, from a package's folder: node <repository>/docs/ship-guides.mjs <file in docs/>…
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const repository = dirname(dirname(fileURLToPath(import.meta.url)));
const packages = { widget: 'widget', companion: 'server/companion', sandbox: 'server/sandbox', gateway: 'server/gateway', card: 'widget/card' };
const shippedBy = { 'companion.md': 'companion', 'reliability.md': 'companion', 'widget.md': 'widget', 'sandbox.md': 'sandbox', 'gateway.md': 'gateway' };

const here = relative(repository, process.cwd());
const own = Object.keys(packages).find((name) => packages[name] === here);
if (!own) throw new Error(`ship-guides: run from a package's folder (${Object.values(packages).join(', ')}), not ${process.cwd()}`);
const { repository: source } = JSON.parse(readFileSync('package.json', 'utf8'));
const onGitHub = `${source.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`;

/** Where a link written from the repository's docs/ goes once the guide is in `<own>/docs/`. */
function shippedTarget(target) {
  const [path, anchor = ''] = target.split(/(?=#)/);
  const file = join('docs', path);
  const fromDocs = (name, inPackage) => (name === own ? relative('docs', inPackage) : `../../${name}/${inPackage}`);
  const guideOf = dirname(file) === 'docs' ? shippedBy[basename(file)] : undefined;
  if (guideOf) return fromDocs(guideOf, file) + anchor;
  const readmeOf = Object.keys(packages).find((name) => file === `${packages[name]}/README.md`);
  if (readmeOf) return fromDocs(readmeOf, 'README.md') + anchor;
  return onGitHub + file + (/\.(png|jpe?g|svg|gif)$/.test(path) ? '?raw=true' : '') + anchor;
}

/** A link's target, relative (not a URL, not an anchor), ending the link or before its title. */
const RELATIVE_LINK = /\]\(((?!https?:|mailto:|#)[^)\s]+)(?=[)\s])/g;
/** Code, fenced or inline, where `](…)` is code (`handlers[type](event)`), not a link. */
const CODE = /```[\s\S]*?```|`[^`\n]*`/g;

/** `text` with each relative link outside code pointed where the package is installed. */
function shipped(text) {
  let out = '';
  let from = 0;
  for (const code of text.matchAll(CODE)) {
    out += text.slice(from, code.index).replace(RELATIVE_LINK, (_, target) => `](${shippedTarget(target)}`) + code[0];
    from = code.index + code[0].length;
  }
  return out + text.slice(from).replace(RELATIVE_LINK, (_, target) => `](${shippedTarget(target)}`);
}

rmSync('docs', { recursive: true, force: true });
for (const guide of process.argv.slice(2)) {
  const text = readFileSync(join(repository, 'docs', guide), 'utf8');
  mkdirSync('docs', { recursive: true });
  writeFileSync(join('docs', guide), guide.endsWith('.md') ? shipped(text) : text);
}
