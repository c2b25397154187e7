import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isStale, newestChange } from './builds.js';

/** A little repository: sources under src/, the build's output in out/. */
function repository(): { root: string; touch: (path: string, secondsAgo: number) => void } {
  const root = mkdtempSync(join(tmpdir(), 'payform-builds-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const touch = (path: string, secondsAgo: number) => {
    const file = join(root, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, path);
    const time = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(file, time, time);
  };
  return { root, touch };
}

const build = { name: 'thing', script: 'build:thing', output: 'out/thing.js', sources: ['src', 'config.ts'] };

describe('what npm start rebuilds', () => {
  it('builds what was never built', () => {
    const { root, touch } = repository();
    touch('src/a.ts', 60);
    expect(isStale(build, root)).toBe(true);
  });

  it('leaves a build newer than every source alone', () => {
    const { root, touch } = repository();
    touch('src/a.ts', 60);
    touch('src/deep/b.ts', 50);
    touch('config.ts', 40);
    touch('out/thing.js', 10);
    expect(isStale(build, root)).toBe(false);
  });

  it('rebuilds when a source, however deep, or the config changed after the build', () => {
    const { root, touch } = repository();
    touch('src/a.ts', 60);
    touch('out/thing.js', 30);
    touch('src/deep/er/b.ts', 5);
    expect(isStale(build, root)).toBe(true);

    const other = repository();
    other.touch('src/a.ts', 60);
    other.touch('out/thing.js', 30);
    other.touch('config.ts', 5);
    expect(isStale(build, other.root)).toBe(true);
  });

  it('ignores tests and test fixtures, which never reach a bundle', () => {
    const { root, touch } = repository();
    touch('src/a.ts', 60);
    touch('out/thing.js', 30);
    touch('src/a.test.ts', 5);
    touch('src/test/fixture.ts', 5);
    expect(isStale(build, root)).toBe(false);
  });

  it('answers 0 for a path that does not exist', () => {
    expect(newestChange(join(tmpdir(), 'payform-no-such-thing'))).toBe(0);
  });
});
