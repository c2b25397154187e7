/**
 * The code before a change, measured beside it in the same run (`--baseline=<rev>`): <rev> is
 * checked out into a temporary git worktree that uses this checkout's node_modules, its own
 * workspace packages linked to its own sources. Removed again by `dispose`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export interface Tree {
  /** `new` (this checkout) or the baseline's revision. */
  readonly name: string;
  readonly root: string;
  dispose(): void;
}

export function currentTree(root: string): Tree {
  return { name: 'new', root, dispose: () => {} };
}

export function baselineTree(root: string, revision: string): Tree {
  const commit = execFileSync('git', ['rev-parse', '--short', `${revision}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const parent = mkdtempSync(join(tmpdir(), 'payform-bench-baseline-'));
  const dir = join(parent, 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: root, stdio: 'ignore' });
  linkModules(root, dir);
  return {
    name: `before (${commit})`,
    root: dir,
    dispose: () => {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' });
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** node_modules of `from`, except the workspace packages: those point at `to`'s own folders. */
function linkModules(from: string, to: string): void {
  const modules = join(to, 'node_modules');
  mkdirSync(join(modules, '@payform'), { recursive: true });
  for (const entry of readdirSync(join(from, 'node_modules'))) {
    if (entry !== '@payform') symlinkSync(join(from, 'node_modules', entry), join(modules, entry));
  }
  const { workspaces } = JSON.parse(readFileSync(join(to, 'package.json'), 'utf8')) as { workspaces: string[] };
  for (const workspace of workspaces) {
    const { name } = JSON.parse(readFileSync(join(to, workspace, 'package.json'), 'utf8')) as { name: string };
    const link = join(modules, name);
    symlinkSync(relative(join(link, '..'), join(to, workspace)), link);
  }
}
