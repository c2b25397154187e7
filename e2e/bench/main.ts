/**
 * `npm run bench`: every budget of design.md measured on this machine, printed with the budget
 * beside it and the load average, and written to bench/results.json. Everything runs on
 * loopback and is bounded in time (a few minutes in all).
 *
 *   npm run bench                            all of it (builds the widget first)
 *   npm run bench -- --only=overhead,ingest  some sections: widget, merchant-build, widget-load, overhead, pay-path, scale-out, ingest, startup
 *   npm run bench -- --no-build              measure the widget as it is in widget/dist
 *   DATABASE_URL=postgres://… npm run bench  ingest on PostgreSQL too (the route and its floor), and scale-out (one and two companions)
 *   BENCH_CPU_PROFILE_DIR=/tmp/p npm run bench -- --only=overhead   V8 CPU profiles of the servers
 *   npm run bench -- --baseline=main         the overhead, pay-path and ingest figures of <rev> too,
 *                                            measured beside this checkout's in the same run
 *   npm run bench -- --baseline=main --rounds=3   each side 3 times, turns alternating; each figure its median
 *
 * Exit code 1 when a measurement failed or a correctness check of one broke (an event applied
 * twice, a payment left unsettled); budgets missed are reported, not failed.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BUNDLE_BUDGET_BYTES, KEYSTROKE_BUDGET_MICROSECONDS, measureWidget } from '../../widget/budget.js';
import { DEFAULT_INGEST, measureFloorIngest, measureLedgerIngest, measureRouteIngest, temporarySqlite } from './ingest.js';
import type { IngestFigures } from './ingest.js';
import { DEFAULT_OVERHEAD, measureCompanionOverhead } from './overhead.js';
import type { RelayFigures } from './overhead.js';
import { measurePayPath } from './pay-path.js';
import { currentLoad, printTable, withinBudget, writeResults } from './report.js';
import type { Budget, Figure } from './report.js';
import { hasStartScript, measureStartup } from './startup.js';
import { baselineTree, currentTree } from './trees/baseline.js';
import type { Tree } from './trees/baseline.js';
import { measureInTree } from './trees/measure.js';
import { alternatingRuns, medianOf, medianRun, runsNote } from './trees/rounds.js';
import { measureWidgetLoad } from './widget-load.js';
import { measureMerchantBuild } from './merchant-build.js';
import type { MerchantBuildFigures } from './merchant-build.js';
import { DEFAULT_SCALE_OUT, measureInstances } from './scale-out.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RESULTS = `${ROOT}bench/results.json`;
const SECTIONS = ['widget', 'merchant-build', 'widget-load', 'overhead', 'pay-path', 'scale-out', 'ingest', 'startup'] as const;
type Section = (typeof SECTIONS)[number];

const INGEST_BUDGET: Budget = { kind: 'min', limit: 5_000, text: '5,000 events/s' };
const POSTGRES_INGEST_BUDGET: Budget = { kind: 'min', limit: 3_000, text: '3,000 events/s' };
const KIB = 1024;
const OVERHEAD_SECTION = '3. Companion overhead (pay: via companion vs straight to the sandbox)';
const ROOT_VITE = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.vite!;
const OLDER_VITES = ['^7', '^6'];

const args = process.argv.slice(2);
const onlyArg = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const selected = new Set<Section>(onlyArg ? (onlyArg.split(',') as Section[]) : SECTIONS);
for (const section of selected) if (!SECTIONS.includes(section)) throw new Error(`unknown section ${section}; use ${SECTIONS.join(', ')}`);

const baselineRevision = args.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length);
// The baseline first, so a slow start of the machine does not flatter the change.
const trees: Tree[] = [...(baselineRevision ? [baselineTree(ROOT, baselineRevision)] : []), currentTree(ROOT)];
process.once('exit', () => trees.forEach((tree) => tree.dispose()));
const sideBySide = trees.length > 1;
const roundsArg = args.find((arg) => arg.startsWith('--rounds='))?.slice('--rounds='.length) ?? '1';
const rounds = Number(roundsArg);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error(`--rounds=${roundsArg}: must be a whole number from 1 to 20`);
if (sideBySide && rounds === 1) {
  console.log('  one run of each side: on a shared VM the same code can measure far apart from one run to the next; --rounds=3 reports medians');
}
const labelled = (tree: Tree, name: string) => (sideBySide ? `${name} — ${tree.name}` : name);

/** A measurement of `tree`'s bench: in this process alone, in a process of that tree's beside a baseline. */
function inTree<T>(tree: Tree, module: string, fn: string, args: readonly unknown[], here: () => Promise<T>): Promise<T> {
  return sideBySide ? measureInTree<T>(tree, module, fn, args) : here();
}

/** Every tree's runs of `measure`: `--rounds` of them, the trees' turns alternating. */
function eachTree<T>(measure: (tree: Tree) => Promise<T>) {
  return alternatingRuns(trees, rounds, measure);
}

const figures: Figure[] = [];
const failures: string[] = [];
const add = (figure: Omit<Figure, 'load'>) => figures.push({ ...figure, load: currentLoad() });

/** A figure of a tree's runs: the median of `value` over them, labelled with the tree. */
interface MedianFigure<T> extends Omit<Figure, 'load' | 'value' | 'detail'> {
  readonly value: (run: T) => number;
  /** Decimals of each run's value in the note; default 2. */
  readonly digits?: number;
  /** What else the run holding the median says. */
  readonly detail?: (run: T) => string;
}

/** Adds the median of `figure.value` over `runs`, its run's detail and then every run's value beside it. */
function addMedian<T>(tree: Tree, runs: readonly T[], { value, digits = 2, detail, name, ...figure }: MedianFigure<T>): void {
  const run = medianRun(runs, value);
  const details = [detail?.(run), runsNote(runs, value, digits)].filter((text) => text);
  add({ ...figure, name: labelled(tree, name), value: value(run), ...(details.length > 0 ? { detail: details.join('; ') } : {}) });
}

async function section(name: Section, title: string, measure: () => Promise<void>): Promise<void> {
  if (!selected.has(name)) return;
  console.log(`… ${title} (load ${currentLoad().toFixed(2)})`);
  try {
    await measure();
  } catch (error) {
    failures.push(`${title}: ${(error as Error).message}`);
    console.error(`  ${title} failed: ${(error as Error).stack ?? String(error)}`);
  }
}

/** Every run is checked, not only the median's: an event applied twice in any of them is a failure. */
function ingestFigures(tree: Tree, title: string, runs: readonly IngestFigures[], budget: Budget | undefined, note?: string): void {
  addMedian(tree, runs, {
    section: '4. Webhook ingest (verify + dedupe + persist)',
    name: title,
    value: (run) => run.perSecond,
    digits: 0,
    unit: 'events/s',
    ...(budget ? { budget } : {}),
    detail: (run) =>
      `${run.events} deliveries of ${run.distinct} events, duplicates ${(run.duplicateRatio * 100).toFixed(1)} %, applied twice ${run.appliedTwice}, unsettled ${run.notSettled}; ${run.cpuMicrosPerEvent.toFixed(0)} µs CPU per delivery${run.databaseCpuMicrosPerEvent === undefined ? '' : `, PostgreSQL's backends ${run.databaseCpuMicrosPerEvent.toFixed(0)} µs`}${note ? `; ${note}` : ''}`,
  });
  for (const run of runs) {
    if (run.appliedTwice !== 0) failures.push(`${labelled(tree, title)}: ${run.appliedTwice} event(s) applied twice`);
    if (run.notSettled !== 0) failures.push(`${labelled(tree, title)}: ${run.notSettled} payment(s) not settled`);
  }
}

async function withPostgresSchema<T>(url: string, use: (schema: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  try {
    return await use(schema);
  } finally {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`).finally(() => client.end());
  }
}

if (selected.has('widget') && !args.includes('--no-build')) {
  console.log('… building the widget (npm run build:widget)');
  const build = spawnSync('npm', ['run', '-s', 'build:widget'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    console.error(build.stdout, build.stderr);
    throw new Error('npm run build:widget failed');
  }
}

await section('widget', 'widget weight and keystroke', async () => {
  const widget = measureWidget();
  const title = '1. Widget weight';
  add({
    section: title,
    name: 'pay-form.js bundle, min+gzip, Lit included',
    value: widget.bundleGzipBytes,
    unit: 'B',
    budget: { kind: 'max', limit: BUNDLE_BUDGET_BYTES, text: `14 KB = ${BUNDLE_BUDGET_BYTES.toLocaleString('en-US')} B` },
    detail: `${(widget.bundleGzipBytes / KIB).toFixed(2)} KiB; as 14 KiB (${(14 * KIB).toLocaleString('en-US')} B) the headroom would be ${14 * KIB - widget.bundleGzipBytes} B; gzip level 6 (Node zlib)`,
  });
  add({ section: title, name: 'unbundled modules without Lit (widget/dist/lib, gzip each, summed)', value: widget.unbundledGzipBytes, unit: 'B' });
  for (const [name, bytes] of Object.entries(widget.chunksGzipBytes)) add({ section: title, name: `  on-demand chunk ${name}, gzip`, value: bytes, unit: 'B' });
  add({
    section: '2. Widget speed',
    name: 'card format + validate per keystroke (Node)',
    value: widget.keystrokeMicroseconds,
    unit: 'µs',
    budget: { kind: 'max', limit: KEYSTROKE_BUDGET_MICROSECONDS, text: `${KEYSTROKE_BUDGET_MICROSECONDS} µs` },
  });
});

await section('merchant-build', "a merchant's Vite build of a page with <pay-form>, from the packed tarballs", async () => {
  // The budget holds for the repository's Vite; the two before it (esbuild's minifier, older
  // default targets), which many shops still run, are shown beside it.
  const [first, ...older] = await measureMerchantBuild([ROOT_VITE, ...OLDER_VITES]);
  const build = first as MerchantBuildFigures;
  add({
    section: '1. Widget weight',
    name: "a merchant's Vite production build of a page with <pay-form>, what loads with the page, gzip",
    value: build.initialGzipBytes,
    unit: 'B',
    budget: { kind: 'max', limit: BUNDLE_BUDGET_BYTES, text: `14 KB = ${BUNDLE_BUDGET_BYTES.toLocaleString('en-US')} B` },
    detail: `${build.initialFiles.join(', ')}; vite ${build.viteVersion}; on demand: ${Object.entries(build.onDemandGzipBytes).map(([file, bytes]) => `${file.replace(/^assets\//, '')} ${bytes} B`).join(', ')}`,
  });
  for (const figures of older) {
    if (figures instanceof Error) {
      console.log(`  the same page with an older Vite: not measured (${figures.message})`);
      continue;
    }
    add({
      section: '1. Widget weight',
      name: `the same page built with Vite ${figures.viteVersion} (its default target)`,
      value: figures.initialGzipBytes,
      unit: 'B',
      detail: figures.initialFiles.join(', '),
    });
  }
});

await section('widget-load', 'module load → interactive <pay-form> in Chromium', async () => {
  const { interactive } = await measureWidgetLoad();
  add({
    section: '2. Widget speed',
    name: 'module load → interactive <pay-form>, headless Chromium, p50',
    value: interactive.p50,
    unit: 'ms',
    detail: `p90 ${interactive.p90.toFixed(0)} ms, ${interactive.samples} first visits (fresh context each), bundle + session over loopback`,
  });
});

await section('overhead', 'companion overhead', async () => {
  const measure = (tree: Tree) => inTree(tree, 'e2e/bench/overhead.ts', 'measureCompanionOverhead', [DEFAULT_OVERHEAD], () => measureCompanionOverhead(DEFAULT_OVERHEAD));
  for (const { tree, runs } of await eachTree(measure)) {
    addMedian(tree, runs, {
      section: OVERHEAD_SECTION,
      name: 'p50 latency added by the companion',
      value: (run) => run.addedP50,
      unit: 'ms',
      budget: { kind: 'max', limit: 1, text: '1 ms' },
      detail: (run) => `direct p50 ${run.direct.p50.toFixed(2)} ms, via companion p50 ${run.viaCompanion.p50.toFixed(2)} ms (${run.direct.samples} pairs, one at a time)`,
    });
    addMedian(tree, runs, {
      section: OVERHEAD_SECTION,
      name: 'p99 latency added by the companion',
      value: (run) => run.addedP99,
      unit: 'ms',
      detail: (run) => `direct p99 ${run.direct.p99.toFixed(2)} ms, via companion p99 ${run.viaCompanion.p99.toFixed(2)} ms`,
    });
    addMedian(tree, runs, {
      section: OVERHEAD_SECTION,
      name: `throughput via companion ÷ direct (${DEFAULT_OVERHEAD.concurrency} callers)`,
      value: (run) => run.throughputRatio,
      unit: '×',
      budget: { kind: 'min', limit: 0.85, text: '0.85' },
      detail: (run) => `${run.viaCompanionPerSecond.toFixed(0)} vs ${run.directPerSecond.toFixed(0)} payments/s`,
    });
    addMedian(tree, runs, {
      section: OVERHEAD_SECTION,
      name: 'companion CPU per payment (its webhooks included)',
      value: (run) => run.companionCpuMsPerPayment,
      unit: 'ms',
      budget: { kind: 'max', limit: 1.5, text: '1.5 ms' },
    });
    addMedian(tree, runs, { section: OVERHEAD_SECTION, name: 'sandbox CPU per payment', value: (run) => run.sandboxCpuMsPerPayment, unit: 'ms', budget: { kind: 'max', limit: 1, text: '1 ms' } });
    // A baseline older than the floor's run measured none.
    const withFloor = runs.filter((run): run is typeof run & { floor: RelayFigures } => run.floor !== undefined);
    if (withFloor.length === 0) continue;
    const floorRow = (name: string, value: (floor: RelayFigures) => number, unit: string, detail: (floor: RelayFigures) => string) =>
      addMedian(tree, withFloor, { section: OVERHEAD_SECTION, name: `the floor, the same run: ${name}`, value: (run) => value(run.floor), unit, detail: (run) => detail(run.floor) });
    floorRow('p50 latency added', (floor) => floor.addedP50, 'ms', (floor) => `direct p50 ${floor.direct.p50.toFixed(2)} ms, via the floor p50 ${floor.via.p50.toFixed(2)} ms`);
    floorRow('throughput via the floor ÷ direct', (floor) => floor.throughputRatio, '×', (floor) => `${floor.viaPerSecond.toFixed(0)} vs ${floor.directPerSecond.toFixed(0)} payments/s`);
    floorRow('CPU per payment (its webhooks included)', (floor) => floor.cpuMsPerPayment, 'ms', () => {
      const over = medianOf(withFloor, (run) => run.companionCpuMsPerPayment / run.floor.cpuMsPerPayment);
      return `the companion's ${over.toFixed(2)}× the floor's (median of the runs' ratios)`;
    });
  }
});

// No budget of its own: it tells the overhead run's CPU a payment apart (old beside new under --baseline).
await section('pay-path', 'the pay request alone, against a gateway that answers at once', async () => {
  const measure = (tree: Tree) => inTree(tree, 'e2e/bench/pay-path.ts', 'measurePayPath', [], () => measurePayPath());
  for (const { tree, runs } of await eachTree(measure)) {
    addMedian(tree, runs, {
      section: OVERHEAD_SECTION,
      name: 'companion CPU per pay request alone (instant gateway, no webhook)',
      value: (run) => run.payCpuMs,
      unit: 'ms',
      detail: (run) => `round trip p50 ${run.roundTrip.p50.toFixed(2)} ms, p99 ${run.roundTrip.p99.toFixed(2)} ms (${run.roundTrip.samples}, one at a time)`,
    });
    addMedian(tree, runs, { section: OVERHEAD_SECTION, name: 'companion CPU to open a session', value: (run) => run.openSessionCpuMs, unit: 'ms' });
    // A baseline older than the floor measured none.
    const withFloor = runs.filter((run) => run.floorPayCpuMs !== undefined) as Array<Required<(typeof runs)[number]>>;
    if (withFloor.length === 0) continue;
    const over = medianOf(withFloor, (run) => run.payCpuMs / run.floorPayCpuMs);
    addMedian(tree, withFloor, {
      section: OVERHEAD_SECTION,
      name: 'the floor: the least a relay does a pay request (HTTP, synced claim, gateway call, record)',
      value: (run) => run.floorPayCpuMs,
      unit: 'ms',
      detail: () => `the companion's pay request ${over.toFixed(2)}× the floor's CPU in the same run (median)`,
    });
  }
});

await section('scale-out', 'one and two companions on one PostgreSQL', async () => {
  const postgres = process.env.DATABASE_URL;
  if (!postgres || !/^postgres(ql)?:\/\//.test(postgres)) {
    console.log('  scale-out: DATABASE_URL is not a postgres:// URL; skipped (set it to measure)');
    return;
  }
  const title = '3b. Scale-out on PostgreSQL (pay, closed loop, sessions opened in the loop)';
  for (const instances of [1, 2]) {
    const measure = (tree: Tree) =>
      withPostgresSchema(postgres, (schema) =>
        inTree(tree, 'e2e/bench/scale-out.ts', 'measureInstances', [postgres, schema, instances, DEFAULT_SCALE_OUT], () => measureInstances(postgres, schema, instances, DEFAULT_SCALE_OUT)),
      );
    for (const { tree, runs } of await eachTree(measure)) {
      addMedian(tree, runs, {
        section: title,
        name: `${instances} companion${instances > 1 ? 's' : ''}, ${DEFAULT_SCALE_OUT.callers} callers`,
        value: (run) => run.perSecond,
        digits: 0,
        unit: 'payments/s',
        detail: (run) =>
          `CPU per payment ${run.cpuMsPerPayment.map((ms) => `${ms.toFixed(2)} ms`).join(' and ')}${run.databaseCpuMsPerPayment === undefined ? '' : `, PostgreSQL's backends ${run.databaseCpuMsPerPayment.toFixed(2)} ms`}; ${run.payments} payments; lost ${run.lost}, doubled ${run.doubled}`,
      });
      // Every run is checked, not only the median's.
      for (const run of runs) {
        if (run.lost !== 0) failures.push(`${labelled(tree, `scale-out, ${instances} companions`)}: ${run.lost} payment(s) lost or moved back`);
        if (run.doubled !== 0) failures.push(`${labelled(tree, `scale-out, ${instances} companions`)}: ${run.doubled} session(s) paid twice`);
      }
    }
  }
});

await section('ingest', 'webhook ingest', async () => {
  const inFlight = DEFAULT_INGEST;
  const oneAtATime = { ...DEFAULT_INGEST, concurrency: 1 };
  const onSqlite = async <T>(measure: (url: string) => Promise<T>) => {
    const file = temporarySqlite();
    try {
      return await measure(file.url);
    } finally {
      file.dispose();
    }
  };
  const ledger = (tree: Tree, url: string, run: typeof inFlight, schema?: string) =>
    inTree(tree, 'e2e/bench/ingest.ts', 'measureLedgerIngest', [url, run, schema], () => measureLedgerIngest(url, run, schema));
  const route = (tree: Tree, url: string, run: typeof inFlight, schema?: string) =>
    inTree(tree, 'e2e/bench/ingest.ts', 'measureRouteIngest', [url, run, schema], () => measureRouteIngest(url, run, schema));
  const eachIngest = async (title: string, measure: (tree: Tree) => Promise<IngestFigures>, budget: Budget | undefined) => {
    for (const { tree, runs } of await eachTree(measure)) ingestFigures(tree, title, runs, budget);
  };
  await eachIngest(`at the ledger, SQLite file (WAL), ${inFlight.concurrency} in flight`, (tree) => onSqlite((url) => ledger(tree, url, inFlight)), INGEST_BUDGET);
  await eachIngest('at the ledger, SQLite file (WAL), one at a time', (tree) => onSqlite((url) => ledger(tree, url, oneAtATime)), INGEST_BUDGET);
  // After each of this checkout's runs of the route, the floor (servers/floor.ts) takes the same
  // deliveries: what a receiver's rate can be on this machine at all.
  const current = trees.at(-1);
  const routeThenFloor = async (tree: Tree, measureRoute: () => Promise<IngestFigures>, measureFloor: () => Promise<IngestFigures>) => ({
    route: await measureRoute(),
    floor: tree === current ? await measureFloor() : undefined,
  });
  const routeAndFloorFigures = async (database: string, budget: Budget, measure: (tree: Tree) => Promise<{ route: IngestFigures; floor: IngestFigures | undefined }>) => {
    for (const { tree, runs } of await eachTree(measure)) {
      ingestFigures(tree, `through POST /webhooks/gateway, ${database}, ${inFlight.concurrency} senders`, runs.map((run) => run.route), budget);
      const paired = runs.filter((run): run is { route: IngestFigures; floor: IngestFigures } => run.floor !== undefined);
      if (paired.length === 0) continue;
      const over = medianOf(paired, (run) => run.route.cpuMicrosPerEvent / run.floor.cpuMicrosPerEvent);
      const note = `the route's CPU a delivery ${over.toFixed(2)}× the floor's in the same round (median)`;
      ingestFigures(tree, `the floor: the least a webhook receiver does, ${database}, ${inFlight.concurrency} senders`, paired.map((run) => run.floor), undefined, note);
    }
  };
  await routeAndFloorFigures('SQLite file', INGEST_BUDGET, (tree) =>
    onSqlite((url) => routeThenFloor(tree, () => route(tree, url, inFlight), () => measureFloorIngest(inFlight))),
  );
  const postgres = process.env.DATABASE_URL;
  if (postgres && /^postgres(ql)?:\/\//.test(postgres)) {
    const run = { ...inFlight, payments: 2_000 };
    await eachIngest(`at the ledger, PostgreSQL, ${run.concurrency} in flight`, (tree) => withPostgresSchema(postgres, (schema) => ledger(tree, postgres, run, schema)), undefined);
    await routeAndFloorFigures('PostgreSQL', POSTGRES_INGEST_BUDGET, (tree) =>
      routeThenFloor(
        tree,
        () => withPostgresSchema(postgres, (schema) => route(tree, postgres, run, schema)),
        () => withPostgresSchema(postgres, (schema) => measureFloorIngest(run, { url: postgres, schema })),
      ),
    );
  } else {
    console.log('  PostgreSQL: DATABASE_URL is not a postgres:// URL; skipped (set it to measure)');
  }
});

await section('startup', 'npm start → ready', async () => {
  if (!hasStartScript()) throw new Error('package.json has no start script yet');
  const { ready } = await measureStartup();
  add({
    section: '5. Start-up',
    name: 'npm start → "payform ready", once built, p50',
    value: ready.p50,
    unit: 'ms',
    budget: { kind: 'max', limit: 2_000, text: '2 s' },
    detail: `slowest ${ready.p99.toFixed(0)} ms of ${ready.samples} starts (free ports, fresh SQLite file)`,
  });
});

printTable(figures);
writeResults(RESULTS, figures, failures);
const missed = figures.filter((figure) => withinBudget(figure) === false);
console.log(`\n${figures.filter((figure) => figure.budget).length - missed.length} of ${figures.filter((figure) => figure.budget).length} budgets met; results in bench/results.json`);
if (failures.length > 0) {
  for (const failure of failures) console.error(`FAILED: ${failure}`);
  process.exitCode = 1;
}
