/**
 * The order in which the main Vitest run (vite.config.ts) starts its files, three at a time.
 * Most files take a second or two; a few take 20–80 s (the resilience suites, the browser and
 * process suites, the PostgreSQL ledger). Started last, one of those runs alone on one worker
 * while the others idle. Vitest starts the longest first once its cache
 * (node_modules/.vite/vitest) knows the durations, but a clean clone — CI — has no cache, and
 * Vitest then starts the largest files first. So: the cached durations when there are some for
 * every file, otherwise the files known to be long first (LONG), then the largest.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

/**
 * The long ones, longest first as measured (2026-11-23: 30–90 s each under load, three at a
 * time), then the rest of what starts whole stacks, processes or a browser, or a PostgreSQL
 * schema per test. Only an order: a file missing here still runs, later.
 */
const LONG = [
  /^e2e\/resilience\/never-sent\./,
  /^e2e\/resilience\/bad-input\./,
  /^server\/ledger\/postgres\.test\./,
  /^e2e\/resilience\/(secrets|load|faults|database-outage)\./,
  /^server\/companion\/integration\/journeys-postgres\./,
  /\.chromium\.test\.ts$/,
  /^e2e\/resilience\//,
  /postgres|(^|\/)main\.test\.ts$|^e2e\/bench\/|\/integration\//,
];

export class LongFirst implements TestSequencer {
  constructor(private readonly vitest: Vitest) {}

  private path(spec: TestSpecification): string {
    return relative(this.vitest.config.root, spec.moduleId);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = new Map(files.map((spec) => [spec, this.vitest.cache.getFileTestResults(`${spec.project.name}:${this.path(spec)}`)?.duration]));
    if ([...durations.values()].every((duration) => duration !== undefined)) {
      return [...files].sort((a, b) => durations.get(b)! - durations.get(a)!);
    }
    const rank = (spec: TestSpecification) => {
      const index = LONG.findIndex((pattern) => pattern.test(this.path(spec)));
      return index === -1 ? LONG.length : index;
    };
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size;
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }

  /** `--shard=i/n`: every n-th file by path, so the shards do not depend on the order above. */
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.vitest.config.shard!;
    return [...files].sort((a, b) => this.path(a).localeCompare(this.path(b))).filter((_, i) => i % count === index - 1);
  }
}
