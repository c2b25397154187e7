/**
 * The widget's bundle, as the companion serves it (dist/widget): built once if it is missing,
 * so a suite that drives the widget in Chromium also runs on a fresh clone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function ensureWidgetBuilt(): void {
  if (existsSync(`${ROOT}dist/widget/pay-form.js`)) return;
  const build = spawnSync('npm', ['run', '-s', 'build:widget'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:widget failed:\n${build.stdout}\n${build.stderr}`);
}
