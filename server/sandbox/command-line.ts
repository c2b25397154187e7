/**
 * The command line of `payform-sandbox` (main.ts): flags first, then the environment, then the
 * defaults. Every problem is collected, so one error names them all.
 */
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { SANDBOX_DOCS } from './docs.js';

export const USAGE = `Usage: payform-sandbox [options]

An offline, stateful twin of the card payment gateway: the API under /api/v1, the checkout and
3-D Secure pages, signed webhooks, and the control plane and request inspector at /_sandbox.

Options:
  --port <n>          port to listen on, 0 for a free one (env SANDBOX_PORT, then PORT; default 3001)
  --host <address>    address to listen on (env SANDBOX_HOST, then HOST; default 127.0.0.1 —
                      the control plane has no credentials: keep it on a trusted host)
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
                          default tolerant, like the live gateway
  SANDBOX_ALLOWED_HOSTS   comma-separated host names it answers besides loopback (against DNS rebinding)

Test cards, the control plane and every behaviour: ${SANDBOX_DOCS}
`;

export interface SandboxOptions {
  readonly port: number;
  readonly host: string;
  readonly projectsFile: string | undefined;
  readonly publicUrl: string | undefined;
}

export type CommandLine =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly options: SandboxOptions }
  | { readonly kind: 'wrong'; readonly problems: readonly string[] };

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  projects: { type: 'string' },
  'public-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export function readCommandLine(args: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandLine {
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

  const given = (flag: string | undefined, ...names: string[]) => {
    if (flag !== undefined) return { value: flag, from: `--${names[0]}` };
    for (const name of names.slice(1)) {
      const value = env[name]?.trim();
      if (value) return { value, from: name };
    }
    return undefined;
  };

  const portSetting = given(text(values.port), 'port', 'SANDBOX_PORT', 'PORT');
  const port = portSetting ? Number(portSetting.value) : 3001;
  if (portSetting && !(/^\d{1,5}$/.test(portSetting.value) && port <= 65_535)) {
    problems.push(`${portSetting.from} must be a port number from 0 to 65535, not "${portSetting.value}"`);
  }

  const host = given(text(values.host), 'host', 'SANDBOX_HOST', 'HOST');
  if (host && host.value.trim() === '') problems.push(`${host.from} must name an address, such as 127.0.0.1`);

  const projects = given(text(values.projects), 'projects', 'SANDBOX_PROJECTS');
  if (projects && projects.value.trim() === '') problems.push(`${projects.from} must name a file`);

  const publicUrl = given(text(values['public-url']), 'public-url', 'SANDBOX_PUBLIC_URL');
  if (publicUrl && !isHttpUrl(publicUrl.value)) problems.push(`${publicUrl.from} must be an http:// or https:// URL, not "${publicUrl.value}"`);

  if (problems.length > 0) return { kind: 'wrong', problems };
  return {
    kind: 'run',
    options: { port, host: host?.value ?? '127.0.0.1', projectsFile: projects?.value, publicUrl: publicUrl?.value },
  };
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

/** A port already taken or reserved, said with the way out; anything else as it came. */
export function listenProblem(error: NodeJS.ErrnoException, port: number): string {
  if (error.code === 'EADDRINUSE') return `port ${port} is already in use: choose another with --port <n> or SANDBOX_PORT (0 takes any free one)`;
  if (error.code === 'EACCES') return `port ${port} needs privileges this process does not have: choose one from 1024 up with --port <n> or SANDBOX_PORT`;
  return error.message;
}
