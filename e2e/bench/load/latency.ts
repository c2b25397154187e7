/** Latency samples in milliseconds and the percentiles the reports quote. */
export interface LatencySummary {
  readonly samples: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly mean: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function summarise(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
  };
}

/** Milliseconds taken by `work`, on the monotonic clock. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/**
 * Runs `work` from `concurrency` loops at once until `durationMs` has passed; answers the
 * completed calls per second. Each loop waits for its call before the next (a closed loop).
 */
export async function closedLoop(concurrency: number, durationMs: number, work: (index: number) => Promise<void>): Promise<{ completed: number; perSecond: number }> {
  let next = 0;
  let completed = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await work(next++);
        completed += 1;
      }
    }),
  );
  return { completed, perSecond: completed / ((performance.now() - start) / 1000) };
}

/** Hands every item to `work`, at most `concurrency` at a time, in order of the list. */
export async function eachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < items.length; index = next++) await work(items[index]!);
    }),
  );
}
