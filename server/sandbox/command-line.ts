/**
 * The command line of `payform-sandbox` (main.ts): flags first, then the environment, then the
 * defaults. Every problem is collected, so one error names them all. readSandboxEnvironment is
 * the same reading without flags, for `npm start`'s sandbox (demo/stack.ts).
 */
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { SANDBOX_DOCS_SAID } from './docs.js';
import { isQuotedSetting, quotedSettingProblem } from '@payform/gateway';
import { allowedHostsProblems, allowedHostsSetting, isAddressOrHostName, misspeltVariables, quotedVariables, strictSettingProblem } from './environment.js';

export const USAGE = `Usage: payform-sandbox [options]

An offline, stateful twin of the card payment gateway: the API under /api/v1, the checkout and
3-D Secure pages, signed webhooks, and the control plane and request inspector at /_sandbox.

Options:
  --port <n>          port to listen on, 0 for a free one (env SANDBOX_PORT, then PORT; default 3001)
  --host <address>    IP address or host name to listen on, no port (env SANDBOX_HOST, then HOST;
                      default 127.0.0.1 — the control plane has no credentials: keep it on a
                      trusted host)
  --projects <file>   merchant projects from a JSON file (env SANDBOX_PROJECTS; format in the docs);
                      default the test project, with PAYFORM_GATEWAY_POS_ID, …_API_KEY,
                      …_API_SECRET and …_ENDPOINTS_KEY replacing its credentials (the
                      unprefixed GATEWAY_* names of 0.2 are still read)
  --public-url <url>  base of the links it hands out (env SANDBOX_PUBLIC_URL; default the address
                      each request came to)
  -h, --help          print this help
  -v, --version       print the version

Environment only:
  SANDBOX_STRICT=1        the default project reads requests strictly (unknown fields refused);
                          0 or unset: tolerant, like the live gateway
  SANDBOX_ALLOWED_HOSTS   comma-separated host names it answers besides loopback (against DNS rebinding)

Test cards, the control plane and every behaviour: ${SANDBOX_DOCS_SAID}
`;

export interface SandboxOptions {
  readonly port: number;
  readonly host: string;
  readonly projectsFile: string | undefined;
  /** Normalised: no trailing slash. */
  readonly publicUrl: string | undefined;
  /** Where each value came from (`--port`, `SANDBOX_PORT`, `PORT`, `the default`), for a listen error to name it. */
  readonly from: { readonly port: string; readonly host: string };
}

/** What the flags and the environment say: options to run with, or every problem; warnings either way. */
export type SandboxEnvironment =
  | { readonly kind: 'run'; readonly options: SandboxOptions; readonly warnings: readonly string[] }
  | { readonly kind: 'wrong'; readonly problems: readonly string[]; readonly warnings: readonly string[] };

export type CommandLine = { readonly kind: 'help' } | { readonly kind: 'version' } | SandboxEnvironment;

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  projects: { type: 'string' },
  'public-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type Env = Readonly<Record<string, string | undefined>>;

export function readCommandLine(args: readonly string[], env: Env): CommandLine {
  // Not strict, so that an unknown flag is named along with every other problem, not alone.
  const { values, tokens } = parseArgs({ args: [...args], options: FLAGS, strict: false, allowPositionals: true, tokens: true });
  const problems: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') problems.push(`unexpected argument "${token.value}"`);
    if (token.kind !== 'option') continue;
    const flag = FLAGS[token.name as keyof typeof FLAGS] as { type: 'string' | 'boolean' } | undefined;
    if (!flag) problems.push(`unknown option ${token.rawName}`);
    else if (flag.type === 'string' && token.value === undefined) problems.push(`${token.rawName} needs a value`);
    else if (flag.type === 'boolean' && token.value !== undefined) problems.push(`${token.rawName} takes no value`);
  }
  if (values.help === true && problems.length === 0) return { kind: 'help' };
  if (values.version === true && problems.length === 0) return { kind: 'version' };
  const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);
  const flags = { port: text(values.port), host: text(values.host), projects: text(values.projects), 'public-url': text(values['public-url']) };
  const read = readSettings(flags, env, false);
  if (problems.length === 0) return read;
  return { kind: 'wrong', problems: [...problems, ...(read.kind === 'wrong' ? read.problems : [])], warnings: read.warnings };
}

/**
 * The sandbox's settings from the environment alone, read and checked as the bin reads them
 * without flags: SANDBOX_PORT, SANDBOX_HOST, SANDBOX_PROJECTS and SANDBOX_PUBLIC_URL (normalised)
 * read, SANDBOX_STRICT and SANDBOX_ALLOWED_HOSTS checked, values kept in quotes refused, misspelt
 * names warned of. For a process that serves createSandbox itself and wants the bin's checks.
 *
 * `withCompanion`: a companion reads the same environment in the same process (`npm start`), so
 * PORT and HOST are its port and host, not fallbacks for the sandbox's, and a PAYFORM_GATEWAY_*
 * name misspelt is the companion's to warn of. Default false, as the bin reads it.
 */
export function readSandboxEnvironment(env: Env, options: { readonly withCompanion?: boolean } = {}): SandboxEnvironment {
  return readSettings({}, env, options.withCompanion ?? false);
}

type Flags = Partial<Record<'port' | 'host' | 'projects' | 'public-url', string>>;

/** A flag wins over its variable; every problem is collected. */
function readSettings(flags: Flags, env: Env, withCompanion: boolean): SandboxEnvironment {
  const problems: string[] = [];
  // A value in quotes is named once, and its other checks are left out: they would only be about the quotes.
  const quoted = new Set(quotedVariables(env));
  for (const name of quoted) problems.push(quotedSettingProblem(name));
  const given = (flag: keyof Flags, ...names: string[]) => {
    const value = flags[flag];
    if (value !== undefined) return { value, from: `--${flag}`, quoted: false };
    for (const name of names) {
      const value = env[name]?.trim();
      if (!value) continue;
      // PORT and HOST are not ours to check for quotes unless they are the ones read.
      if (!quoted.has(name) && isQuotedSetting(value)) {
        quoted.add(name);
        problems.push(quotedSettingProblem(name));
      }
      return { value, from: name, quoted: quoted.has(name) };
    }
    return undefined;
  };
  // Beside a companion, PORT and HOST are its own.
  const fallback = (name: string) => (withCompanion ? [] : [name]);

  const portSetting = given('port', 'SANDBOX_PORT', ...fallback('PORT'));
  const port = portSetting ? Number(portSetting.value) : 3001;
  if (portSetting && !portSetting.quoted && !(/^\d{1,5}$/.test(portSetting.value) && port <= 65_535)) {
    problems.push(`${portSetting.from} must be a port number from 0 to 65535, not "${portSetting.value}"`);
  }

  const host = given('host', 'SANDBOX_HOST', ...fallback('HOST'));
  if (host && !host.quoted) {
    const problem = hostProblem(host.value, host.from);
    if (problem) problems.push(problem);
  }

  const projects = given('projects', 'SANDBOX_PROJECTS');
  if (projects && projects.value.trim() === '') problems.push(`${projects.from} must name a file`);

  const publicUrlSetting = given('public-url', 'SANDBOX_PUBLIC_URL');
  let publicUrl: string | undefined;
  if (publicUrlSetting && !publicUrlSetting.quoted) {
    const read = readPublicUrl(publicUrlSetting.value, publicUrlSetting.from);
    if (read.problem) problems.push(read.problem);
    publicUrl = read.url;
  }

  if (!quoted.has('SANDBOX_STRICT')) {
    const strict = strictSettingProblem(env);
    if (strict) problems.push(strict);
  }

  if (!quoted.has('SANDBOX_ALLOWED_HOSTS')) problems.push(...allowedHostsProblems(allowedHostsSetting(env), 'SANDBOX_ALLOWED_HOSTS'));

  // Warned of rather than refused: a name that merely looks like ours may be another tool's.
  const warnings = misspeltVariables(env)
    .filter(({ meant }) => !withCompanion || meant.startsWith('SANDBOX_'))
    .map(({ name, meant }) => `${name} is set, and the sandbox does not read it: did you mean ${meant}?`);
  if (problems.length > 0) return { kind: 'wrong', problems, warnings };
  return {
    kind: 'run',
    warnings,
    options: {
      port,
      host: host?.value ?? '127.0.0.1',
      projectsFile: projects?.value,
      publicUrl,
      from: { port: portSetting?.from ?? 'the default', host: host?.from ?? 'the default' },
    },
  };
}

/**
 * `--host 127.0.0.1`, `SANDBOX_HOST=127.0.0.1` or `publicUrl: 'https://…'`: a setting as it is
 * written where it came from, a flag, a variable or an option of createSandbox (config-check.ts).
 */
function written(from: string, value: string): string {
  if (from.startsWith('--')) return `${from} ${value}`;
  return /^[A-Z_]+$/.test(from) ? `${from}=${value}` : `${from}: '${value}'`;
}

/**
 * An address to listen on is an IP address or a host name: a URL or a host:port would reach
 * getaddrinfo whole, and fail there as a bare ENOTFOUND.
 */
function hostProblem(value: string, from: string): string | undefined {
  if (isAddressOrHostName(value)) return undefined;
  const portFrom = from.startsWith('--') ? '--port' : 'SANDBOX_PORT';
  const url = /^[a-z][a-z\d+.-]*:\/\//i.test(value) && URL.canParse(value) ? new URL(value) : undefined;
  if (url) {
    const address = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return `${from} takes an address, not a URL ("${value}"): ${written(from, address)}${url.port ? ` and ${written(portFrom, url.port)}` : ''}`;
  }
  const hostAndPort = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(value);
  if (hostAndPort) {
    const address = (hostAndPort[1] ?? '').replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
    return `${from} takes an address without a port ("${value}"): ${written(from, address)} and ${written(portFrom, hostAndPort[2] ?? '')}`;
  }
  const bracketed = /^\[(.*)\]$/.exec(value)?.[1];
  if (bracketed !== undefined && isIP(bracketed)) return `${from} takes an IPv6 address without brackets: ${written(from, bracketed)}`;
  return `${from} must be an IP address or a host name, such as 127.0.0.1 or 0.0.0.0 (every interface), not "${value}"`;
}

/**
 * The public URL is the base of every link the sandbox hands out: a query or a fragment would
 * land in the middle of them, and a trailing slash would double the next one (`//_sandbox`).
 * `from` names the setting: a flag, a variable, or createSandbox's option.
 */
export function readPublicUrl(value: string, from: string): { url?: string; problem?: string } {
  if (!isHttpUrl(value)) {
    // `localhost:3001` parses as a URL of the scheme `localhost:`, and its pages' origin is "null".
    const withScheme = `http://${value}`;
    const fix = !value.includes('://') && isHttpUrl(withScheme) ? `: ${written(from, withScheme)}` : '';
    return { problem: `${from} must be an http:// or https:// URL, not "${value}"${fix}` };
  }
  const url = new URL(value);
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (/[?#]/.test(value)) return { problem: `${from} must have no query or fragment, which would end up inside every link it hands out: ${written(from, base)}` };
  if (url.username || url.password) return { problem: `${from} must not carry a user name or password, which every link it hands out would show: ${written(from, base)}` };
  return { url: base };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** This package's version, from its own package.json: the package resolves its own name, from source or dist. */
export function packageVersion(): string {
  return (createRequire(import.meta.url)('@payform/sandbox/package.json') as { version: string }).version;
}

/**
 * Said at start when the sandbox listens on every interface: its control plane takes no
 * credentials and answers any IP address as its host, so the network can reset it and read its
 * webhooks. Undefined for any other address. `settings` names the host and public URL as the one
 * who started it sets them: the bin's flags, or the variables where there are none (`npm start`).
 */
export function everyInterfaceWarning(host: string, port: number, publicUrl: boolean, settings: { readonly host: string; readonly publicUrl: string } = FLAG_NAMES): string | undefined {
  if (host !== '0.0.0.0' && host !== '[::]' && host !== '::') return undefined;
  const reach = publicUrl ? '' : `, and ${settings.publicUrl} with the address they reach it by`;
  return `listening on every interface (${host}): anyone who reaches port ${port} can reset the sandbox and read its webhooks at /_sandbox; give ${written(settings.host, '127.0.0.1')} unless other machines must reach it${reach}`;
}

const FLAG_NAMES = { host: '--host', publicUrl: '--public-url' } as const;

/** Why listening failed, naming the setting behind the value (flag, variable or default) and the way out. */
export function listenProblem(error: NodeJS.ErrnoException, options: Pick<SandboxOptions, 'port' | 'host' | 'from'>): string {
  const from = (source: string) => (source === 'the default' ? 'the default' : `from ${source}`);
  const port = `port ${options.port} (${from(options.from.port)})`;
  const host = `${JSON.stringify(options.host)} (${from(options.from.host)})`;
  // PORT is the companion's and the shop's too: the sandbox taking it is most often the clash.
  const ownPort = options.from.port === 'PORT' ? '; PORT is the companion\'s port too: give the sandbox its own with SANDBOX_PORT' : '';
  switch (error.code) {
    case 'EADDRINUSE':
      return `${port} is already in use: choose another with --port <n> or SANDBOX_PORT (0 takes any free one)${ownPort}`;
    case 'EACCES':
      return `${port} needs privileges this process does not have: choose one from 1024 up with --port <n> or SANDBOX_PORT`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host ${host} is not found (${error.code}): give an address of this machine, such as 127.0.0.1 or 0.0.0.0 (every interface), with --host or SANDBOX_HOST`;
    case 'EADDRNOTAVAIL':
      return `the address ${host} is not one of this machine's (EADDRNOTAVAIL): give 127.0.0.1, or 0.0.0.0 for every interface, with --host or SANDBOX_HOST`;
    default:
      return `${error.message} (listening on ${host}, ${port})`;
  }
}
