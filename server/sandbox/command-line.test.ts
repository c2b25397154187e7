/**
 * The bin's command line and environment as readCommandLine reads them: what is refused before
 * the sandbox starts (quoted values, a URL or host:port as --host, a public URL with a query),
 * what is warned of (a variable misspelt), and a listen error naming where its value came from.
 * main.test.ts runs the bin itself.
 */
import { describe, expect, it } from 'vitest';
import { everyInterfaceWarning, listenProblem, readCommandLine, readSandboxEnvironment } from './command-line.js';
import type { CommandLine, SandboxOptions } from './command-line.js';

type Env = Record<string, string | undefined>;

function problems(args: string[], env: Env = {}): readonly string[] {
  const read = readCommandLine(args, env);
  if (read.kind !== 'wrong') throw new Error(`expected a refusal, got ${read.kind}`);
  return read.problems;
}

function run(args: string[], env: Env = {}): Extract<CommandLine, { kind: 'run' }> {
  const read = readCommandLine(args, env);
  if (read.kind !== 'run') throw new Error(`expected to run, got ${JSON.stringify(read)}`);
  return read;
}

describe('misspelt variables', () => {
  it('are warned of, naming the variable meant, and nothing else is', () => {
    const { warnings } = run([], {
      SANDBOX_PROJECT: 'projects.json',
      SANDBOX_PUBLICURL: 'http://sandbox.test',
      SANDBOX_STRICTT: '1',
      SANBOX_PORT: '4000',
      SANDBOX_ALLOWED: 'sandbox', // cut short
      PAYFORM_SANDBOX_PORT: '3101', // the companion's prefix on the sandbox's name
      PAYFORM_GATEWAY_APIKEY: 'key',
      PAYFORM_GATEWAY_BASEURL: 'http://127.0.0.1:3001', // the companion's, misspelt: its own to say
      PAYFORM_GATEWAY_WIDGET_KEY: 'widget', // the companion's, as spelt
      SANDBOX_PORT: '0',
      SANDBOX_DEBUG: '1', // like none of ours: another tool's
      PATH: '/usr/bin',
    });
    expect(warnings).toEqual([
      'SANDBOX_PROJECT is set, and the sandbox does not read it: did you mean SANDBOX_PROJECTS?',
      'SANDBOX_PUBLICURL is set, and the sandbox does not read it: did you mean SANDBOX_PUBLIC_URL?',
      'SANDBOX_STRICTT is set, and the sandbox does not read it: did you mean SANDBOX_STRICT?',
      'SANBOX_PORT is set, and the sandbox does not read it: did you mean SANDBOX_PORT?',
      'SANDBOX_ALLOWED is set, and the sandbox does not read it: did you mean SANDBOX_ALLOWED_HOSTS?',
      'PAYFORM_SANDBOX_PORT is set, and the sandbox does not read it: did you mean SANDBOX_PORT?',
      'PAYFORM_GATEWAY_APIKEY is set, and the sandbox does not read it: did you mean PAYFORM_GATEWAY_API_KEY?',
    ]);
  });

  it('are warned of with a refusal too', () => {
    const read = readCommandLine(['--port', 'x'], { SANDBOX_HOTS: '0.0.0.0' });
    expect(read).toMatchObject({ kind: 'wrong', warnings: ['SANDBOX_HOTS is set, and the sandbox does not read it: did you mean SANDBOX_HOST?'] });
  });
});

describe('SANDBOX_STRICT', () => {
  it('takes 1, true, 0, false or nothing, and refuses anything else by name', () => {
    for (const value of ['1', 'true', 'TRUE', '0', 'false', '', ' ']) run([], { SANDBOX_STRICT: value });
    expect(problems([], { SANDBOX_STRICT: 'yes' })).toEqual(['SANDBOX_STRICT must be 1 or true (strict), or 0, false or empty (tolerant), not "yes"']);
  });
});

describe('quoted values', () => {
  it('are refused for every SANDBOX_* and PAYFORM_GATEWAY_* variable, and HOST or PORT when read, naming each once', () => {
    expect(
      problems([], {
        SANDBOX_PROJECTS: '"projects.json"',
        SANDBOX_STRICT: "'1'",
        SANDBOX_ALLOWED_HOSTS: '"sandbox"',
        PAYFORM_GATEWAY_API_SECRET: '"secret"',
        GATEWAY_API_KEY: "'key'",
        PORT: '"3001"',
        HOST: '"0.0.0.0"',
      }),
    ).toEqual([
      'SANDBOX_PROJECTS is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
      'SANDBOX_STRICT is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
      'SANDBOX_ALLOWED_HOSTS is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
      'PAYFORM_GATEWAY_API_SECRET is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
      'GATEWAY_API_KEY is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
      'PORT is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
      'HOST is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them',
    ]);
    // PORT is not read when SANDBOX_PORT is set: not the sandbox's to judge; nor are names of
    // its prefixes that it does not read (another tool's, or the companion's).
    expect(run([], { SANDBOX_PORT: '0', PORT: '"3000"' }).options.port).toBe(0);
    expect(run([], { SANDBOX_OTHER_TOOL: '"x"', PAYFORM_GATEWAY_WIDGET_URL: '"https://widget.example"' }).kind).toBe('run');
  });
});

describe('--public-url', () => {
  it('is refused with a query or fragment, naming the URL to give instead', () => {
    expect(problems(['--public-url', 'https://sandbox.test/base?x=1'])).toEqual([
      '--public-url must have no query or fragment, which would end up inside every link it hands out: --public-url https://sandbox.test/base',
    ]);
    expect(problems([], { SANDBOX_PUBLIC_URL: 'https://sandbox.test/#top' })).toEqual([
      'SANDBOX_PUBLIC_URL must have no query or fragment, which would end up inside every link it hands out: SANDBOX_PUBLIC_URL=https://sandbox.test',
    ]);
    expect(problems(['--public-url', 'https://user:pass@sandbox.test'])).toEqual([
      '--public-url must not carry a user name or password, which every link it hands out would show: --public-url https://sandbox.test',
    ]);
  });

  it('is normalised: no trailing slash, so that links are not //_sandbox', () => {
    expect(run(['--public-url', 'https://Sandbox.test/']).options.publicUrl).toBe('https://sandbox.test');
    expect(run([], { SANDBOX_PUBLIC_URL: 'https://sandbox.test/gateway//' }).options.publicUrl).toBe('https://sandbox.test/gateway');
  });
});

describe('--host', () => {
  it('takes an IP address or a host name', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'sandbox', 'payform_sandbox', 'sandbox.internal.example']) {
      expect(run(['--host', host]).options).toMatchObject({ host, from: { host: '--host' } });
    }
  });

  it('refuses a URL or a host:port before starting, naming the option and what to give', () => {
    expect(problems(['--host', 'http://127.0.0.1'])).toEqual(['--host takes an address, not a URL ("http://127.0.0.1"): --host 127.0.0.1']);
    expect(problems([], { SANDBOX_HOST: 'http://127.0.0.1:4000/' })).toEqual(['SANDBOX_HOST takes an address, not a URL ("http://127.0.0.1:4000/"): SANDBOX_HOST=127.0.0.1 and SANDBOX_PORT=4000']);
    expect(problems(['--host', '127.0.0.1:4000'])).toEqual(['--host takes an address without a port ("127.0.0.1:4000"): --host 127.0.0.1 and --port 4000']);
    expect(problems([], { HOST: '[::1]:4000' })).toEqual(['HOST takes an address without a port ("[::1]:4000"): HOST=::1 and SANDBOX_PORT=4000']);
    expect(problems(['--host', '[::1]'])).toEqual(['--host takes an IPv6 address without brackets: --host ::1']);
    expect(problems(['--host', '127.0.0.1/24'])).toEqual(['--host must be an IP address or a host name, such as 127.0.0.1 or 0.0.0.0 (every interface), not "127.0.0.1/24"']);
  });
});

describe('a listen error', () => {
  const options = (from: SandboxOptions['from'], host = '127.0.0.1', port = 3000) => ({ port, host, from });
  const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

  it('names where the port or host came from, and the way out', () => {
    expect(listenProblem(failure('EADDRINUSE'), options({ port: 'PORT', host: 'the default' }))).toBe(
      "port 3000 (from PORT) is already in use: choose another with --port <n> or SANDBOX_PORT (0 takes any free one); PORT is the companion's port too: give the sandbox its own with SANDBOX_PORT",
    );
    expect(listenProblem(failure('EADDRINUSE'), options({ port: 'the default', host: 'the default' }))).toBe(
      'port 3000 (the default) is already in use: choose another with --port <n> or SANDBOX_PORT (0 takes any free one)',
    );
    expect(listenProblem(failure('ENOTFOUND'), options({ port: '--port', host: 'SANDBOX_HOST' }, 'sandbox.invalid'))).toBe(
      'the host "sandbox.invalid" (from SANDBOX_HOST) is not found (ENOTFOUND): give an address of this machine, such as 127.0.0.1 or 0.0.0.0 (every interface), with --host or SANDBOX_HOST',
    );
    expect(listenProblem(failure('EADDRNOTAVAIL'), options({ port: '--port', host: 'HOST' }, '10.9.8.7'))).toBe(
      'the address "10.9.8.7" (from HOST) is not one of this machine\'s (EADDRNOTAVAIL): give 127.0.0.1, or 0.0.0.0 for every interface, with --host or SANDBOX_HOST',
    );
  });
});

describe('listening on every interface', () => {
  it('is warned of, naming the control plane and the way back to loopback; any other address is not', () => {
    expect(everyInterfaceWarning('0.0.0.0', 4010, false)).toBe(
      'listening on every interface (0.0.0.0): anyone who reaches port 4010 can reset the sandbox and read its webhooks at /_sandbox; give --host 127.0.0.1 unless other machines must reach it, and --public-url with the address they reach it by',
    );
    expect(everyInterfaceWarning('[::]', 4010, true)).toMatch(/\(\[::\]\).*must reach it$/);
    // Where there are no flags (npm start's sandbox), in the variables' terms.
    expect(everyInterfaceWarning('0.0.0.0', 3001, false, { host: 'SANDBOX_HOST', publicUrl: 'SANDBOX_PUBLIC_URL' })).toBe(
      'listening on every interface (0.0.0.0): anyone who reaches port 3001 can reset the sandbox and read its webhooks at /_sandbox; give SANDBOX_HOST=127.0.0.1 unless other machines must reach it, and SANDBOX_PUBLIC_URL with the address they reach it by',
    );
    for (const host of ['127.0.0.1', '[::1]', 'localhost', '192.168.1.5']) expect(everyInterfaceWarning(host, 4010, false)).toBeUndefined();
  });
});

describe('SANDBOX_ALLOWED_HOSTS', () => {
  it('refuses an entry with a scheme or a port, which no request host would match, naming the host to write', () => {
    const read = readCommandLine([], { SANDBOX_ALLOWED_HOSTS: 'sandbox, http://payments.test:4010, gateway:3001' });
    expect(read).toMatchObject({ kind: 'wrong' });
    expect(read.kind === 'wrong' && read.problems).toEqual([
      'SANDBOX_ALLOWED_HOSTS takes host names without a scheme or port, as requests name them: "http://payments.test:4010" would never match one; write payments.test',
      'SANDBOX_ALLOWED_HOSTS takes host names without a scheme or port, as requests name them: "gateway:3001" would never match one; write gateway',
    ]);
    expect(run([], { SANDBOX_ALLOWED_HOSTS: 'sandbox,payments.test' }).kind).toBe('run');
  });
});

describe('readSandboxEnvironment (npm start reads the sandbox\'s variables with it)', () => {
  it('reads the environment as the bin does without flags', () => {
    const env = { SANDBOX_PORT: '4010', SANDBOX_HOST: '0.0.0.0', SANDBOX_PUBLIC_URL: 'https://sandbox.test/', SANDBOX_PROJECT: 'projects.json' };
    expect(readSandboxEnvironment(env)).toEqual({
      kind: 'run',
      options: { port: 4010, host: '0.0.0.0', projectsFile: undefined, publicUrl: 'https://sandbox.test', from: { port: 'SANDBOX_PORT', host: 'SANDBOX_HOST' } },
      warnings: ['SANDBOX_PROJECT is set, and the sandbox does not read it: did you mean SANDBOX_PROJECTS?'],
    });
    expect(readSandboxEnvironment({ SANDBOX_HOST: 'http://127.0.0.1:4000' })).toMatchObject({
      kind: 'wrong',
      problems: ['SANDBOX_HOST takes an address, not a URL ("http://127.0.0.1:4000"): SANDBOX_HOST=127.0.0.1 and SANDBOX_PORT=4000'],
    });
  });

  it('beside a companion, leaves PORT and HOST and the credentials\' misspellings to it', () => {
    const read = readSandboxEnvironment({ PORT: '3000', HOST: '"0.0.0.0:80"', PAYFORM_GATEWAY_APIKEY: 'key', SANDBOX_PORTT: '1' }, { withCompanion: true });
    expect(read).toEqual({
      kind: 'run',
      warnings: ['SANDBOX_PORTT is set, and the sandbox does not read it: did you mean SANDBOX_PORT?'],
      options: { port: 3001, host: '127.0.0.1', projectsFile: undefined, publicUrl: undefined, from: { port: 'the default', host: 'the default' } },
    });
  });
});
