/**
 * The widget's bundle, as the companion serves it (widget/dist): built when it is missing or
 * older than the widget's sources (the rule `npm start` uses), so a suite that drives the widget
 * in Chromium runs on a fresh clone and never tests yesterday's bundle.
 */
import { spawnSync } from 'node:child_process';
import { BUILDS, REPOSITORY, isStale } from '../../../demo/builds.js';

export function ensureWidgetBuilt(): void {
  const widget = BUILDS.find((build) => build.name === 'widget');
  if (widget && !isStale(widget)) return;
  const build = spawnSync('npm', ['run', '-s', 'build:widget'], { cwd: REPOSITORY, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:widget failed:\n${build.stdout}\n${build.stderr}`);
}
