/**
 * `node check-types.mjs <project> <package>…`: a merchant's TypeScript project (its tsconfig.json)
 * checked by the TypeScript installed beside it, as `tsc -p <project>` checks it with skipLibCheck
 * off, but with the merchant's own libraries left to the merchant. Checked whole: the project's
 * files, and every declaration file of the packages named and of what they install (their
 * `dependencies`, all the way down), since those are what installing payform brings. The others
 * (TypeScript's lib, @types/node, React, Vue, Svelte…) are the shop's own choice and are checked
 * only where payform's declarations or the shop's code use them: checking them whole was most of
 * tsc's time (11 of its 20 s of checking here) and says nothing about payform. An error in a
 * payform declaration is still found, an import of a package the merchant has no reason to
 * install or a clash with a framework's types included: those are reported in payform's file.
 *
 * Prints the diagnostics as tsc does; exits with 2 when there are any, as tsc does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';

const [projectArgument, ...packages] = process.argv.slice(2);
const project = resolve(projectArgument);
const ts = createRequire(join(project, 'tsconfig.json'))('typescript');
if (typeof ts.createProgram !== 'function') {
  throw new Error(`the shop's TypeScript ${ts.version ?? ''} has no compiler API (createProgram; TypeScript 7's package has none yet) to check the project with: give the shop TypeScript 5 or 6`);
}

/** The folder of `name` as Node would find it from `from`: in the nearest node_modules that has it. */
function packageFolder(name, from) {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(folder) === folder) return undefined;
  }
}

/** The packages named and everything they install, by name. */
function installedBy(names) {
  const folders = new Set();
  const found = new Set();
  const visit = (name, from) => {
    const folder = packageFolder(name, from);
    if (folder === undefined || folders.has(folder)) return;
    folders.add(folder);
    found.add(name);
    const { dependencies = {} } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    for (const dependency of Object.keys(dependencies)) visit(dependency, folder);
  };
  for (const name of names) visit(name, project);
  return found;
}

/** The package a file belongs to (the innermost node_modules), or undefined for the project's own. */
function packageOf(file) {
  const names = [...file.matchAll(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)];
  return names.at(-1)?.[1];
}

const payform = installedBy(packages);
const config = ts.getParsedCommandLineOfConfigFile(join(project, 'tsconfig.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  },
});
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, configFileParsingDiagnostics: config.errors });
const checked = program.getSourceFiles().filter((file) => {
  const owner = packageOf(file.fileName);
  return owner === undefined || payform.has(owner);
});
const diagnostics = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program.getSyntacticDiagnostics(),
  ...checked.flatMap((file) => program.getSemanticDiagnostics(file)),
];
process.stdout.write(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => project, getNewLine: () => '\n' }));
process.exitCode = diagnostics.length > 0 ? 2 : 0;
