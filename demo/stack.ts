/**
 * The whole stack in one process: the sandbox gateway (unless PAYFORM_GATEWAY_BASE_URL names a
 * real one), the companion with its back office, and the demo shop on the companion's port.
 * `npm start` (demo/main.ts) runs one; the end-to-end suite runs one per test worker.
 *
 *   const stack = await startStack({ env: { ...process.env, PORT: '0', SANDBOX_PORT: '0' } });
 *   stack.shopUrl; stack.sandboxUrl; stack.adminToken;
 *   await stack.close();
 */
import { statSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { readCompanionConfig, startCompanion } from '@payform/companion';
import type { CompanionSettings, RunningCompanion } from '@payform/companion';
import { nearestName } from '@payform/gateway';
import { TEST_WIDGET_KEY, testProjectCredentials } from '@payform/gateway/testing';
import { createSandbox, everyInterfaceWarning, readSandboxEnvironment, strictFromEnv } from '@payform/sandbox';
import type { SandboxApp, SandboxConfig, SandboxOptions } from '@payform/sandbox';
import { SELLERS } from './catalog.js';
import { demoRoutes } from './server/demo-routes.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where the shop's pages link to the back office (page-chrome.ts, result-page.ts). */
const BACK_OFFICE_PATH = '/admin';

export interface StackOptions {
  /** Where the settings come from (the README's variables); default process.env. */
  readonly env?: Env;
  /** The companion's gateway timeout per call; default the client's. */
  readonly gatewayTimeoutMs?: number;
  /** The demo's own warnings (a misspelt variable); default stderr. */
  readonly log?: (line: string) => void;
  /** The sandbox's error log; default stderr. */
  readonly sandboxLog?: (line: string) => void;
  /** More sandbox settings (the end-to-end suite holds reordered webhooks longer). */
  readonly sandbox?: Pick<SandboxConfig, 'webhooks' | 'timings'>;
}

export interface RunningStack {
  /** The shop, on the companion's origin. */
  readonly shopUrl: string;
  readonly backOfficeUrl: string;
  /** The bundled sandbox; undefined when PAYFORM_GATEWAY_BASE_URL names another gateway. */
  readonly sandboxUrl: string | undefined;
  readonly adminToken: string;
  /** True when PAYFORM_ADMIN_TOKEN was not set and this run made one up. */
  readonly adminTokenGenerated: boolean;
  readonly databaseUrl: string;
  /** How `<pay-form>` takes the card: to the gateway's tokenizer, or through this server. */
  readonly cardEntry: 'tokenize' | 'relay';
  readonly companion: RunningCompanion;
  /** Stops the companion (ledger closed), then the sandbox. */
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const env = options.env ?? process.env;
  const warn = options.log ?? ((line: string) => console.error(`payform: ${line}`));
  const sandboxLog = options.sandboxLog ?? ((line: string) => console.error(`[sandbox] ${line}`));
  for (const warning of misspeltDemoVariables(env)) warn(warning);
  const { settings, sandbox: sandboxOptions } = readStackEnvironment(env, sandboxLog);
  const shop = { port: settings.port, host: settings.host ?? '127.0.0.1' };
  const sandbox = sandboxOptions ? await startSandbox(env, sandboxOptions, sandboxLog, options, shop) : undefined;
  let companion: RunningCompanion;
  try {
    // The token is printed by whoever started the stack, with the back office's address.
    companion = await startCompanion({ ...settings, adminTokenGenerated: false }, {
      ...(sandbox ? { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url } : {}),
      ...(options.gatewayTimeoutMs ? { gatewayTimeoutMs: options.gatewayTimeoutMs } : {}),
      // The companion's back office, as a merchant turns it on, naming the shop's sellers for split payments.
      backOffice: { path: BACK_OFFICE_PATH, subMerchants: SELLERS.map((seller) => ({ id: seller.subMerchantId, name: seller.name })) },
      extend: (app) => app.route('/', demoRoutes(app)),
    });
  } catch (error) {
    await sandbox?.close();
    throw withLedgerHint(error, settings.databaseUrl);
  }
  return {
    shopUrl: `${companion.url}/`,
    backOfficeUrl: `${companion.url}${BACK_OFFICE_PATH}`,
    sandboxUrl: sandbox?.url,
    adminToken: settings.adminToken,
    adminTokenGenerated: settings.adminTokenGenerated,
    databaseUrl: settings.databaseUrl,
    cardEntry: settings.tokenizer ? 'tokenize' : 'relay',
    companion,
    async close() {
      await companion.close();
      await sandbox?.close();
    },
  };
}

/**
 * The companion's, the demo's and the sandbox's variables, all read before anything starts:
 * every wrong one is named in one refusal, as README.md promises, not one per start.
 */
function readStackEnvironment(env: Env, log: (line: string) => void): { settings: CompanionSettings; sandbox: SandboxOptions | undefined } {
  const problems: string[] = [];
  const read = <T>(reader: () => T): T | undefined => {
    try {
      return reader();
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      problems.push(error.message.replace(/^Invalid environment: /, ''));
      return undefined;
    }
  };
  problems.push(...backOfficeProblems(env));
  const companion = read(() => readCompanionConfig({ ...env, PAYFORM_BACK_OFFICE: undefined, PAYFORM_BACK_OFFICE_SELLERS: undefined }));
  const entry = read(() => cardEntry(env));
  // Without the companion's settings, whether the bundled sandbox runs is read off the variable itself.
  const bundled = companion ? companion.gatewayBaseUrl === undefined : !env.PAYFORM_GATEWAY_BASE_URL?.trim();
  const sandbox = bundled ? readBundledSandboxEnvironment(env, log) : undefined;
  problems.push(...(sandbox?.problems ?? []));
  if (problems.length > 0 || !companion || !entry) throw new TypeError(`Invalid environment: ${problems.join('; ')}`);
  return { settings: demoCardEntry(companion, entry), sandbox: sandbox?.options };
}

/**
 * The bin's back-office variables would be overridden by the shop's own back office (at the path its
 * pages link to, naming its catalog's sellers): refused, not ignored, as SANDBOX_PROJECTS is.
 */
function backOfficeProblems(env: Env): string[] {
  const path = env.PAYFORM_BACK_OFFICE?.trim();
  const named = [
    ...(path && path !== BACK_OFFICE_PATH ? ['PAYFORM_BACK_OFFICE'] : []),
    ...(env.PAYFORM_BACK_OFFICE_SELLERS?.trim() ? ['PAYFORM_BACK_OFFICE_SELLERS'] : []),
  ];
  if (named.length === 0) return [];
  return [
    `${named.join(' and ')} ${named.length > 1 ? 'are' : 'is'} not read by npm start, whose back office is at ${BACK_OFFICE_PATH} (the shop's pages link there) ` +
      "and names the shop's own sellers: unset it, or run the companion alone (npm run companion, npx payform-companion) to choose them",
  ];
}

interface RunningSandbox {
  readonly app: SandboxApp;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The sandbox's variables, read and checked as `npx payform-sandbox` reads them — but not PORT
 * and HOST, which are the companion's here. A misspelt one is logged once.
 */
function readBundledSandboxEnvironment(env: Env, log: (line: string) => void): { problems: string[]; options: SandboxOptions | undefined } {
  // The companion runs on the test project's credentials (or PAYFORM_GATEWAY_*'s): a projects
  // file's would not match them, nor its sub-merchants the shop's sellers. Refused, not ignored.
  const projects = env.SANDBOX_PROJECTS?.trim()
    ? [
        'SANDBOX_PROJECTS is not read by npm start, whose sandbox runs the test project for the demo\'s companion: ' +
          'run the sandbox alone with npx payform-sandbox --projects <file>, and point PAYFORM_GATEWAY_BASE_URL (with the project\'s PAYFORM_GATEWAY_* credentials) at it',
      ]
    : [];
  const read = readSandboxEnvironment({ ...env, SANDBOX_PROJECTS: undefined }, { withCompanion: true });
  for (const warning of read.warnings) log(warning);
  return read.kind === 'wrong' ? { problems: [...read.problems, ...projects], options: undefined } : { problems: projects, options: read.options };
}

/** The sandbox on SANDBOX_PORT (3001; 0 for any free port) of SANDBOX_HOST (127.0.0.1). */
async function startSandbox(
  env: Env,
  listen: SandboxOptions,
  log: (line: string) => void,
  options: StackOptions,
  shop: { readonly port: number; readonly host: string },
): Promise<RunningSandbox> {
  const { port, host: hostname, publicUrl } = listen;
  const app = createSandbox({ ...options.sandbox, projects: [{ ...testProjectCredentials(env), strict: strictFromEnv(env) }], publicUrl, log });
  const server = serve({ fetch: app.fetch, port, hostname }) as Server;
  await new Promise<void>((resolve, reject) => {
    if (server.listening) resolve();
    server.once('listening', resolve).once('error', (error: NodeJS.ErrnoException) => {
      void app.sandbox.stop();
      if (error.code !== 'EADDRINUSE') return reject(new Error(`The sandbox could not listen on ${hostname}:${port}: ${error.message}`, { cause: error }));
      void sandboxPortInUse(port, shop).then((message) => reject(new Error(message, { cause: error })));
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const exposed = everyInterfaceWarning(host, address.port, publicUrl !== undefined, { host: 'SANDBOX_HOST', publicUrl: 'SANDBOX_PUBLIC_URL' });
  if (exposed) log(exposed);
  const url = publicUrl ?? `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${address.port}`;
  return {
    app,
    url,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.sandbox.stop();
    },
  };
}

/**
 * The sandbox's port is taken. Both ports taken is almost always an `npm start` already running
 * (a second terminal, a run left in the background): said as such, not as two fixes one at a time.
 */
async function sandboxPortInUse(port: number, shop: { readonly port: number; readonly host: string }): Promise<string> {
  if (shop.port !== 0 && !(await isFree(shop.port, shop.host))) {
    return `ports ${shop.port} and ${port} are both in use, most likely by an npm start still running: stop it (Ctrl-C in its terminal), ` +
      'or set PORT and SANDBOX_PORT to free ports (0 takes any free one) — a second run would share the first run’s ledger, so give it PAYFORM_DATABASE_URL=:memory: too';
  }
  return `port ${port} is already in use: set SANDBOX_PORT to a free port, or SANDBOX_PORT=0 to take any free one`;
}

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false)).listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * The demo tokenizes cards by default: on the bundled sandbox, with no widget key set, it takes
 * the test project's. PAYFORM_DEMO_CARD_ENTRY=relay shows the relay mode instead (the card
 * through the companion), as a companion without a widget key runs.
 */
function demoCardEntry(settings: CompanionSettings, entry: 'tokenize' | 'relay'): CompanionSettings {
  if (entry === 'relay') return { ...settings, tokenizer: undefined };
  if (settings.tokenizer || settings.gatewayBaseUrl !== undefined) return settings;
  return { ...settings, tokenizer: { widgetKey: TEST_WIDGET_KEY, widgetUrl: undefined } };
}

function cardEntry(env: Env): 'tokenize' | 'relay' {
  const entry = env.PAYFORM_DEMO_CARD_ENTRY?.trim() || 'tokenize';
  if (entry !== 'tokenize' && entry !== 'relay') throw new TypeError(`Invalid environment: PAYFORM_DEMO_CARD_ENTRY must be tokenize or relay, not ${JSON.stringify(entry)}`);
  return entry;
}

/** The demo's own variables. */
const DEMO_VARIABLES = ['PAYFORM_DEMO_CARD_ENTRY'];

/**
 * A misspelt demo variable, once each, naming the one meant: the companion warns of names near
 * its own, and a name near none of them would otherwise be ignored without a word.
 */
function misspeltDemoVariables(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('PAYFORM_') && !DEMO_VARIABLES.includes(name))
    .flatMap((name) => {
      const meant = nearestName(name, DEMO_VARIABLES, { cutShort: true }) ?? (name.startsWith('PAYFORM_DEMO_') ? DEMO_VARIABLES[0] : undefined);
      return meant ? [`${name} is not a variable of the demo and is ignored: did you mean ${meant}?`] : [];
    });
}

/**
 * A SQLite ledger file that is there but cannot be opened under `npm start` is most often an
 * older run's (another branch's, a later version's, a broken copy): the demo's data can go.
 */
function withLedgerHint(error: unknown, databaseUrl: string): unknown {
  if (!(error instanceof Error) || !error.message.startsWith('the ledger could not be opened')) return error;
  if (databaseUrl.startsWith('postgres') || databaseUrl === ':memory:' || !isFile(databaseUrl)) return error;
  return new Error(
    `${error.message} — for the demo, move ${databaseUrl} aside (or delete it: its orders go) to start a new one, or set PAYFORM_DATABASE_URL=:memory: for a run that keeps nothing`,
    { cause: error },
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
