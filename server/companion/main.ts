#!/usr/bin/env node
/**
 * `payform-companion` (in the repository `npm run companion`): the companion on its own,
 * configured by the environment (settings.ts; `--help` lists the main variables); Ctrl-C stops it.
 * `payform-companion copy-ledger` copies its ledger from SQLite into PostgreSQL (copy-ledger.ts);
 * `payform-companion backup` backs its SQLite ledger up (backup.ts); `payform-companion
 * reopen-ledger` takes back a file copy-ledger moved (reopen-ledger.ts).
 */
import { BACKUP_USAGE, COPY_LEDGER_USAGE, packageVersion, readCommandLine, REOPEN_LEDGER_USAGE, USAGE } from './command-line.js';
import { loadEnvFiles } from './env-files.js';

const commandLine = readCommandLine(process.argv.slice(2));
const USAGES = { help: USAGE, 'copy-ledger-help': COPY_LEDGER_USAGE, 'backup-help': BACKUP_USAGE, 'reopen-ledger-help': REOPEN_LEDGER_USAGE } as const;
if (commandLine.kind in USAGES) {
  process.stdout.write(USAGES[commandLine.kind as keyof typeof USAGES]);
  process.exit(0);
}
if (commandLine.kind === 'version') {
  process.stdout.write(`@payform/companion ${packageVersion()}\n`);
  process.exit(0);
}
if (commandLine.kind === 'wrong') {
  const command = commandLine.command ? `payform-companion ${commandLine.command}` : 'payform-companion';
  console.error(`${command}: ${commandLine.problem}\nRun ${command} --help for more.`);
  // A command's refusals are its failures (exit 1): a script checks one code.
  process.exit(commandLine.command ? 1 : 2);
}
const envFiles = loadEnvFiles(('envFiles' in commandLine && commandLine.envFiles) || []);
if ('problem' in envFiles) {
  console.error(`payform companion could not start: ${envFiles.problem}`);
  process.exit(1);
}
if (envFiles.late.length > 0) {
  console.error(`payform companion: --env-file sets ${envFiles.late.join(', ')}, which Node reads only as it starts, so without effect here: set them in the environment instead`);
}
if (commandLine.kind === 'copy-ledger' || commandLine.kind === 'backup' || commandLine.kind === 'reopen-ledger') {
  const output = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  if (commandLine.kind === 'reopen-ledger') process.exit(await (await import('./reopen-ledger.js')).runReopenLedger(commandLine, process.env, output));
  const run = commandLine.kind === 'copy-ledger' ? (await import('./copy-ledger.js')).runCopyLedger : (await import('./backup.js')).runBackup;
  process.exit(await run(commandLine, process.env, output));
}

// The companion itself is loaded only to run it: --help and --version answer without it.
const [{ startCompanion }, { readCompanionConfig }] = await Promise.all([import('./start.js'), import('./settings.js')]);
/** The companion once started: until then it has answered nothing but 503 `starting`. */
let running: Awaited<ReturnType<typeof startCompanion>> | undefined;
/** The start failed: its reason is being said. */
let startFailed = false;
/** When the first stop signal came; 0 until then. */
let stoppingSince = 0;
/** A Ctrl-C under npm reaches the companion twice: from the terminal, and forwarded by npm. */
const ONE_KEYPRESS_MS = 1_000;
const stop = (signal: NodeJS.Signals) => {
  if (stoppingSince) {
    // A second Ctrl-C is someone at a terminal who will not wait; a second SIGTERM is more
    // likely a supervisor repeating itself, and cutting payments short would lose their answers.
    if (signal === 'SIGINT' && Date.now() - stoppingSince < ONE_KEYPRESS_MS) return;
    if (signal === 'SIGINT') {
      console.log('payform companion stopped at once (SIGINT again): requests in flight were cut short; reconciliation settles their payments');
      process.exit(130);
    }
    console.log(`payform companion already stopping (${signal} again): still finishing the requests in flight (up to 30 s); SIGKILL stops it at once`);
    return;
  }
  // A start that failed says why and exits 1, below.
  if (startFailed) return;
  stoppingSince = Date.now();
  const said = signal === 'SIGHUP' ? 'SIGHUP: its terminal closed' : signal;
  if (!running) {
    // Still starting (a migration may wait long for another instance's): nothing to drain, and a
    // migration cut short is rolled back. Its log's last lines go out as the process exits.
    console.log(`payform companion stopped (${said}) before it was ready: it had taken no request`);
    process.exit(0);
  }
  console.log(`payform companion stopping (${said}): finishing the requests in flight`);
  void running.close().then(() => {
    console.log('payform companion stopped');
    process.exit(0);
  });
};
/**
 * SIGHUP, whose default would end the process at once, mid-payment: from a terminal, it closed,
 * and the companion drains as for SIGTERM; from a supervisor or logrotate, it asks a reload, and
 * there is nothing to reload (the settings are read at start, the log is standard error), so it
 * goes on serving — stopping would leave a shop down under a restart-on-failure policy.
 */
const hangUp = () => {
  if (process.stdin.isTTY) return stop('SIGHUP');
  console.log('payform companion: SIGHUP ignored, nothing to reload: its settings are read at start (restart it to change one), and it logs to standard error');
};
// Before the port is open: whoever sees it open (a cluster's primary, a supervisor's check, a
// deploy rolled back) may stop us at once, and a signal that came before the handlers would kill
// the process at once, its log's last lines unwritten, or once ready, undrained. Kept after the
// first: a second signal with no handler would end the process at once, without a word.
process.on('SIGINT', stop).on('SIGTERM', stop).on('SIGHUP', hangUp);
let settings;
try {
  settings = readCompanionConfig(process.env);
  running = await startCompanion(settings);
} catch (error) {
  startFailed = true;
  // The log's lines of this turn go out first (they are written together at its end): the
  // reason comes last, where whoever reads the output looks.
  await new Promise((resolve) => setImmediate(resolve));
  // A wrong setting or a missing database driver: the message says what to do, a stack would bury it.
  console.error(`payform companion could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
console.log(`payform companion listening on ${running.url} — ${running.listening}`);
// No token guards that listener: where it listens is said, so an address open to all is seen.
if (running.metricsUrl) console.log(`payform companion: metrics at ${running.metricsUrl} (PAYFORM_METRICS_ADDRESS; no token: only Prometheus should reach it)`);
if (settings.backOffice) console.log(`payform companion: back office at ${running.app.companion.services.options.publicUrl}${settings.backOffice.path} (sign in with PAYFORM_ADMIN_TOKEN)`);
