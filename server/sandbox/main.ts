#!/usr/bin/env node
/**
 * `payform-sandbox` (and `npm run sandbox`): the sandbox alone, over HTTP. Flags, environment
 * and defaults are in command-line.ts (`--help` prints them). A wrong flag, value or projects
 * file stops it before it listens, with exit code 2 and one error naming every problem.
 */
import type { AddressInfo } from 'node:net';
import { everyInterfaceWarning, listenProblem, packageVersion, readCommandLine, USAGE } from './command-line.js';
import { SANDBOX_DOCS_SAID } from './docs.js';
import { refuseTunnels } from './http/tunnels.js';
import { CREDENTIAL_VARIABLES, LEGACY_CREDENTIAL_VARIABLES } from './environment.js';
import type { Project } from './config.js';

const commandLine = readCommandLine(process.argv.slice(2), process.env);
if (commandLine.kind === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (commandLine.kind === 'version') {
  process.stdout.write(`@payform/sandbox ${packageVersion()}\n`);
  process.exit(0);
}
for (const warning of commandLine.warnings) console.error(`payform-sandbox: ${warning}`);
if (commandLine.kind === 'wrong') refuse(commandLine.problems);
const options = commandLine.options;

// The sandbox itself is loaded only to run it: --help, --version and a wrong flag answer without it.
const [{ serve }, { createSandbox }, { credentialProblems, ProjectsFileError, readProjectsFile }, { TEST_PROJECT_DEFAULTS, testProjectCredentials }] = await Promise.all([
  import('@hono/node-server'),
  import('./app.js'),
  import('./projects-file.js'),
  import('@payform/gateway/testing'),
]);

// The test project's credentials are read under the companion's names; the 0.2 ones still work.
for (const name of LEGACY_CREDENTIAL_VARIABLES) {
  if (process.env[name]?.trim() && !process.env[`PAYFORM_${name}`]?.trim()) console.error(`payform-sandbox: ${name} is deprecated: name it PAYFORM_${name}`);
}

// The test project's credentials are held to a projects file's rules: printed for the companion, a
// wrong one would only fail there, or answer its every request 401. A projects file's projects
// carry their own (checked with the file).
if (!options.projectsFile) {
  const problems = credentialProblems(testProjectCredentials(process.env));
  if (problems.length > 0) refuse(problems);
}

let projects: Partial<Project>[] | undefined;
if (options.projectsFile) {
  try {
    projects = await readProjectsFile(options.projectsFile);
  } catch (error) {
    if (error instanceof ProjectsFileError) refuse([error.message]);
    throw error;
  }
  // The file's projects hold their own credentials: the test project's variables set beside it are
  // not read. Said when they name no project of the file (a .env shared with a companion of one of
  // them is as it should be).
  const named = testProjectCredentials(process.env);
  const set = [...CREDENTIAL_VARIABLES, ...LEGACY_CREDENTIAL_VARIABLES].filter((name) => process.env[name]?.trim());
  const matches = projects.some((project) => project.posId === named.posId || project.apiKey === named.apiKey);
  if (set.length > 0 && !matches) {
    const [are, name] = set.length === 1 ? ['is', 'names'] : ['are', 'name'];
    console.error(`payform-sandbox: ${set.join(', ')} ${are} set, and ${name} no project of the projects file, whose projects carry their own credentials (the lines below print the first one's)`);
  }
}

const sandbox = createSandbox({
  projects,
  publicUrl: options.publicUrl,
  log: (line) => console.log(`[sandbox] ${line}`),
});
const project = sandbox.sandbox.gateway.defaultProject;
// A secret other than the test one came from the shell, and may be a live one (the companion
// reads the same name): it is not printed back into a terminal or a CI log, only said to be used.
const secretFromShell = !projects && project.apiSecret !== TEST_PROJECT_DEFAULTS.apiSecret;
const secretLine = secretFromShell ? '# PAYFORM_GATEWAY_API_SECRET: the one in this environment (not printed)' : `PAYFORM_GATEWAY_API_SECRET=${project.apiSecret}`;
const others = sandbox.sandbox.gateway.config.projects.slice(1);
// A client written from the interface alone may pass here and be refused live: said where it starts.
const tolerantLine = project.strict
  ? ''
  : '  reads requests tolerantly, as the live gateway is said to (the inspector notes what it let pass): SANDBOX_STRICT=1 holds a client of your own to the interface\n';

const server = serve({ fetch: sandbox.fetch, port: options.port, hostname: options.host }, (info: AddressInfo) => {
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  const bound = `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${info.port}`;
  const url = options.publicUrl ?? bound;
  const exposed = everyInterfaceWarning(host, info.port, options.publicUrl !== undefined);
  if (exposed) console.error(`payform-sandbox: ${exposed}`);
  const everywhere = exposed !== undefined;
  // The links it hands out use the public URL; where it listens is said apart, for checking a proxy in front of it.
  const boundLine = options.publicUrl ? `  bound to ${host}:${info.port}; every link it hands out uses the public URL, ${url}\n` : '';
  // Every line the companion needs, as a .env file takes them (comments on lines of their own): on
  // this machine it follows the sandbox's redirects by itself; elsewhere (another host, a
  // container) it needs PAYFORM_SANDBOX_ORIGIN as well.
  console.log(`payform sandbox gateway listening on ${url} — for the companion's environment, or a .env file it reads (npx payform-companion --env-file=.env):
PAYFORM_GATEWAY_BASE_URL=${url}
PAYFORM_GATEWAY_POS_ID=${project.posId}
PAYFORM_GATEWAY_API_KEY=${project.apiKey}
${secretLine}
PAYFORM_GATEWAY_ENDPOINTS_KEY=${project.endpointsKey}
${widgetKeyLines(project)}
${overCaptureLines(project)}# needed only when the sandbox is not on the companion's machine:
${everywhere && !options.publicUrl ? "# PAYFORM_SANDBOX_ORIGIN: the sandbox's address as the companion reaches it (give it as --public-url too)" : `PAYFORM_SANDBOX_ORIGIN=${new URL(url).origin}`}

${boundLine}${others.map((other) => `  also project ${other.name}: pos_id ${other.posId}\n`).join('')}${tolerantLine}\
  inspector and control plane: ${url}/_sandbox   test cards: ${url}/
  docs: ${SANDBOX_DOCS_SAID}`);
});

refuseTunnels(server);

server.on('error', (error) => {
  console.error(`payform sandbox could not start: ${listenProblem(error, options)}`);
  process.exit(1);
});

let stopping = false;
const stop = (signal: string) => {
  // A second signal while webhooks are still being posted: the one who sent it has waited enough.
  if (stopping) {
    console.log(`payform sandbox stopped without waiting (${signal} again)`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  }
  stopping = true;
  const underWay = sandbox.sandbox.gateway.webhooks.postsUnderWay;
  const waiting = underWay === 0 ? '' : `: waiting for ${underWay} webhook post${underWay === 1 ? '' : 's'} under way, ${sandbox.sandbox.gateway.config.webhooks.timeoutMs / 1000} s at most (${signal} again stops now)`;
  console.log(`payform sandbox stopping (${signal})${waiting}`);
  if ('closeAllConnections' in server) server.closeAllConnections();
  server.close(() => void sandbox.sandbox.stop().then(() => process.exit(0)));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

function refuse(problems: readonly string[]): never {
  const message = problems.length === 1 ? problems[0] : `wrong command line:\n${problems.map((problem) => `  ${problem}`).join('\n')}`;
  console.error(`payform-sandbox: ${message}\nRun payform-sandbox --help for the options.`);
  process.exit(2);
}

/** The project's over-capture allowance, which the companion holds captures to: 0 unless told. */
function overCaptureLines({ captureOverReservePercent: percent }: { captureOverReservePercent: number }): string {
  return percent > 0 ? `# a capture may take up to ${percent} % more than its auth held, as this project allows:\nPAYFORM_CAPTURE_OVER_RESERVE_PERCENT=${percent}\n` : '';
}

/**
 * The widget key, for tokenizing: the companion seals the tokenizer's answers with the API
 * secret, which must then be 32 bytes. A project whose secret is not would stop the companion's
 * start, so its key is left out, saying why.
 */
function widgetKeyLines(project: { widgetKey: string; apiSecret: string }): string {
  const bytes = Buffer.byteLength(project.apiSecret, 'utf8');
  return bytes === 32
    ? `# <pay-form> sends the card to the gateway's tokenizer, so card numbers never reach your server:\nPAYFORM_GATEWAY_WIDGET_KEY=${project.widgetKey}`
    : `# no PAYFORM_GATEWAY_WIDGET_KEY: tokenizing needs an api_secret of 32 bytes, and this project's has ${bytes}`;
}
