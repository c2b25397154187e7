/**
 * `payform-sandbox` / `npm run sandbox` as a user runs it: a child process that prints its URL
 * and credentials, answers over HTTP and stops on SIGTERM; that takes its projects from a file;
 * and that refuses a wrong command line or projects file with one error and exit code 2. And
 * its README, which the tarball carries without the repository's docs.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCardNumber, TEST_CARDS, TEST_SUB_MERCHANTS } from '@payform/gateway/testing';
import { authHeaderValue } from '../gateway/wire/routes.js';
import { bundled } from '../../e2e/entry-points.mjs';
import type { Project } from './config.js';
import { directPayment } from './testing/in-process.js';

const MAIN = await bundled('server/sandbox/main.ts');

type Child = ReturnType<typeof spawn>;

function start(args: string[], env: Record<string, string> = {}): Child {
  return spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Waits for the printed URL; rejects with the output when the process exits first. */
async function listening(child: Child): Promise<{ url: string; output: () => string }> {
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      const match = /GATEWAY_BASE_URL=(\S+)/.exec(output);
      if (match?.[1] && output.includes('server/sandbox#readme')) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${String(code)}): ${output}`)));
  });
  return { url, output: () => output };
}

/** Runs to the end: exit code and what was printed. */
async function finished(child: Child): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

async function stop(child: Child): Promise<number | null> {
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'payform-sandbox-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('payform-sandbox (server/sandbox/main.ts)', { timeout: 30_000 }, () => {
  it('listens, prints URL and credentials, serves the API, and stops on SIGTERM once webhooks are posted or at a second', async () => {
    const child = start([], { PAYFORM_GATEWAY_API_KEY: 'printed-key', PAYFORM_GATEWAY_POS_ID: '', GATEWAY_API_SECRET: 'legacy-named-secret-of-32-bytes!' });
    try {
      const { url, output } = await listening(child);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // Every line a companion needs, under the names it reads.
      expect(output()).toContain(`\nPAYFORM_GATEWAY_BASE_URL=${url}\n`);
      expect(output()).toContain('PAYFORM_GATEWAY_API_KEY=printed-key');
      expect(output()).toContain('PAYFORM_GATEWAY_POS_ID=5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15'); // empty variable: the default
      // The 0.2 name is still read, once said so; a secret from the shell is not printed back.
      expect(output()).toContain('# PAYFORM_GATEWAY_API_SECRET: the one in this environment (not printed)');
      expect(output()).not.toContain('legacy-named-secret-of-32-bytes!');
      expect(output()).toContain('payform-sandbox: GATEWAY_API_SECRET is deprecated: name it PAYFORM_GATEWAY_API_SECRET');
      expect(output()).not.toContain('GATEWAY_API_KEY is deprecated');
      expect(output()).toContain('PAYFORM_GATEWAY_ENDPOINTS_KEY=sandbox-test-endpoints-key');
      expect(output()).toContain('PAYFORM_GATEWAY_WIDGET_KEY=sandbox-test-widget-key\n');
      expect(output()).toContain(`PAYFORM_SANDBOX_ORIGIN=${url}\n`);
      expect(output()).toContain('reads requests tolerantly, as the live gateway is said to (the inspector notes what it let pass): SANDBOX_STRICT=1 holds');
      // Pasted into a .env file, the block reads as the companion's environment: every line a
      // variable or a comment.
      const block = output().slice(output().indexOf('PAYFORM_GATEWAY_BASE_URL'), output().indexOf('\n\n'));
      expect(block.split('\n').filter((line) => !/^(#.*|PAYFORM_[A-Z_]+=\S+)$/.test(line))).toEqual([]);
      expect(parseEnv(block)).toEqual({
        PAYFORM_GATEWAY_BASE_URL: url,
        PAYFORM_GATEWAY_POS_ID: '5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15',
        PAYFORM_GATEWAY_API_KEY: 'printed-key',
        PAYFORM_GATEWAY_ENDPOINTS_KEY: 'sandbox-test-endpoints-key',
        PAYFORM_GATEWAY_WIDGET_KEY: 'sandbox-test-widget-key',
        // Else the companion holds captures to the auth's amount, and refuses what the project allows.
        PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '15',
        PAYFORM_SANDBOX_ORIGIN: url,
      });
      expect(await (await fetch(`${url}/health`)).text()).toBe('OK');
      // A client that takes the sandbox for its proxy is answered, not cut off.
      const tunnel = connect(Number(new URL(url).port), '127.0.0.1');
      tunnel.end('CONNECT gateway.example:443 HTTP/1.1\r\nHost: gateway.example:443\r\n\r\n');
      const answer = (await tunnel.toArray()).join('');
      expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.stringContaining('CONNECT'), args: { code: 'P-405' } });
      const accounts = await fetch(`${url}/api/v1/balances/pos/5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15/accounts`, {
        headers: { 'X-API-AUTH': 'CPAY printed-key:legacy-named-secret-of-32-bytes!' },
      });
      expect(accounts.status).toBe(200);

      // Stopping waits for a webhook post under way, says so, and a second signal stops at once.
      const receiver = createServer(() => undefined); // takes the post and never answers
      const posted = once(receiver, 'request');
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      try {
        const serverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
        const paid = await fetch(`${url}/api/v1/payment`, {
          method: 'POST',
          headers: { 'X-API-AUTH': 'CPAY printed-key:legacy-named-secret-of-32-bytes!', 'X-API-KEY': 'sandbox-test-endpoints-key', 'Content-Type': 'application/json' },
          body: JSON.stringify(directPayment({ posId: '5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15' } as Project, { server_url: serverUrl })),
        });
        expect(paid.status).toBe(200);
        await posted;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await expect.poll(output).toMatch(/stopping \(SIGTERM\): waiting for 1 webhook post under way, \d+ s at most \(SIGTERM again stops now\)/);
        child.kill('SIGTERM');
        expect((await exited)[0]).toBe(143);
      } finally {
        receiver.closeAllConnections();
        receiver.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('takes its projects from SANDBOX_PROJECTS (the example file) and its port from --port', async () => {
    const child = start(['--port', '0'], { SANDBOX_PORT: 'not a port', SANDBOX_PROJECTS: 'docs/sandbox-projects.example.json', PAYFORM_GATEWAY_API_KEY: 'an-unread-key' });
    try {
      const { url, output } = await listening(child);
      // The test project's credentials set beside a projects file are said to be unread.
      expect(output()).toContain('payform-sandbox: PAYFORM_GATEWAY_API_KEY is set, and names no project of the projects file, whose projects carry their own credentials');
      expect(output()).toContain('GATEWAY_POS_ID=0b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34');
      // Its secret is 32 bytes: the companion can seal the tokenizer's answers with it.
      expect(output()).toContain('PAYFORM_GATEWAY_WIDGET_KEY=sandbox-test-widget-key');
      // A projects file's own secret is the sandbox's to print, for the companion to copy.
      expect(output()).toContain('PAYFORM_GATEWAY_API_SECRET=acme-sandbox-api-secret-32-bytes\n');
      expect(output()).toContain('also project Acme Marketplace: pos_id 7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75');
      // The example's own ledgers hold every currency its project accepts.
      expect(output()).not.toContain('move no balance');
      const { projects } = (await (await fetch(`${url}/_sandbox`)).json()) as { projects: Record<string, unknown>[] };
      expect(projects.map((project) => [project.name, project.three_d_secure])).toEqual([
        ['Acme Coffee', 'always'],
        ['Acme Marketplace', 'never'],
      ]);
      const accounts = await fetch(`${url}/api/v1/balances/pos/0b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34/accounts`, {
        headers: { 'X-API-AUTH': authHeaderValue('acme-sandbox-api-key', 'acme-sandbox-api-secret-32-bytes') },
      });
      expect(await accounts.json()).toEqual({
        accounts: [
          { id: '6a2d8f41-0c7b-4e93-b5a1-9f3e2d7c6b10', name: 'Settlement account', currency: 'UAH', balances: { available: 15000, rollingReserve: 0 } },
          { id: '5f0e9b2c-7a41-4d83-9c6e-1b8a3d5f2e07', name: 'Settlement account (EUR)', currency: 'EUR', balances: { available: 0, rollingReserve: 0 } },
          { id: 'd41c7a92-3e6f-4b08-8c2d-5a9b1e0f7c63', name: 'Test account', currency: 'XTS', balances: { available: 0, rollingReserve: 0 } },
        ],
      });
      expect(await stop(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('leaves the widget key out of its lines, saying why, for a project whose secret cannot seal tokens', async () => {
    const file = join(directory, 'short-secret.json');
    await writeFile(file, JSON.stringify({ projects: [{ pos_id: '0b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34', api_key: 'k1', api_secret: 'short-secret', endpoints_key: 'e1', name: 'One' }] }));
    const child = start(['--port', '0', '--projects', file]);
    try {
      const { output } = await listening(child);
      expect(output()).not.toContain('PAYFORM_GATEWAY_WIDGET_KEY=');
      expect(output()).toContain("# no PAYFORM_GATEWAY_WIDGET_KEY: tokenizing needs an api_secret of 32 bytes, and this project's has 12");
      expect(await stop(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses a projects file with one error naming every wrong entry, exit code 2', async () => {
    const file = join(directory, 'wrong-projects.json');
    const valid = { pos_id: '0b7e4c1a-9d3f-4a62-8e15-2c6f0a9b7d34', api_key: 'k1', api_secret: 's1', endpoints_key: 'e1', name: 'One' };
    await writeFile(
      file,
      JSON.stringify({
        projects: [
          { ...valid, currencies: ['UAH', 'XTS', 'uah'], three_d_secure: 'sometimes' },
          { ...valid, api_key: 'k2', api_secret: '', name: 'Two', capture_over_reserve: 10 },
        ],
      }),
    );
    const result = await finished(start(['--projects', file]));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`payform-sandbox: ${file} is not a valid projects file:`);
    for (const entry of [
      'projects[0].currencies[2]: must be a three-letter upper-case ISO 4217 code',
      'projects[0].three_d_secure:',
      'projects[1].api_secret: must not be empty',
      'projects[1].capture_over_reserve: is not allowed',
      'projects[1].pos_id: is already another project’s',
    ]) {
      expect(result.stderr).toContain(entry);
    }
  });

  it('refuses a missing projects file and wrong flags, naming each, exit code 2', async () => {
    const missing = await finished(start(['--projects', join(directory, 'nowhere.json')]));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere\.json is not a valid projects file:\n {2}cannot be read \(ENOENT\)/);

    // A --host given as a URL is refused before starting, like the rest (command-line.test.ts has its cases).
    const wrong = await finished(start(['--port', '70000', '--public-url', 'ftp://example', '--colour', '--host', 'http://127.0.0.1']));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('payform-sandbox: wrong command line:');
    expect(wrong.stderr).toContain('unknown option --colour');
    expect(wrong.stderr).toContain('--port must be a port number from 0 to 65535, not "70000"');
    expect(wrong.stderr).toContain('--public-url must be an http:// or https:// URL, not "ftp://example"');
    expect(wrong.stderr).toContain('--host takes an address, not a URL ("http://127.0.0.1"): --host 127.0.0.1');
  });

  it('prints its public URL normalised, where it is bound apart, and warns of a misspelt variable', async () => {
    const child = start(['--public-url', 'https://Sandbox.test/gateway/'], { SANDBOX_PROJECT: 'projects.json', SANDBOX_STRICT: '1' });
    try {
      const { url, output } = await listening(child);
      expect(url).toBe('https://sandbox.test/gateway');
      expect(output()).toContain('payform-sandbox: SANDBOX_PROJECT is set, and the sandbox does not read it: did you mean SANDBOX_PROJECTS?');
      expect(output()).toMatch(/\n {2}bound to 127\.0\.0\.1:\d+; every link it hands out uses the public URL, https:\/\/sandbox\.test\/gateway\n/);
      expect(output()).toContain('inspector and control plane: https://sandbox.test/gateway/_sandbox ');
      expect(output()).not.toContain('tolerantly');
      expect(await stop(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses a project id that is not a UUID, which the companion would refuse, exit code 2', async () => {
    const wrong = await finished(start(['--port', '0'], { PAYFORM_GATEWAY_POS_ID: 'nope' }));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('payform-sandbox: PAYFORM_GATEWAY_POS_ID must be a UUID (the project\'s id), not "nope"');
  });

  it('refuses credentials no request could carry, naming each variable and not the secret, exit code 2', async () => {
    const wrong = await finished(start(['--port', '0'], { PAYFORM_GATEWAY_API_KEY: 'shop:key', PAYFORM_GATEWAY_API_SECRET: 'a secret of the shop 32 bytes ok' }));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('PAYFORM_GATEWAY_API_KEY must not hold whitespace or a colon: requests send it in X-API-AUTH: CPAY <API key>:<API secret>');
    expect(wrong.stderr).toContain('PAYFORM_GATEWAY_API_SECRET must not hold whitespace');
    expect(wrong.stderr).not.toContain('a secret of the shop');
  });

  it('reads a project id given in upper case as the same id: printed, and its requests answered, in lower case', async () => {
    const child = start([], { PAYFORM_GATEWAY_POS_ID: '5D1C2A8E-3F47-4B6A-9E0D-7C4B2F8A6E15' });
    try {
      const { url, output } = await listening(child);
      expect(output()).toContain('PAYFORM_GATEWAY_POS_ID=5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15\n');
      for (const posId of ['5D1C2A8E-3F47-4B6A-9E0D-7C4B2F8A6E15', '5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15']) {
        const accounts = await fetch(`${url}/api/v1/balances/pos/${posId}/accounts`, { headers: { 'X-API-AUTH': 'CPAY sandbox-test-api-key:sandbox-test-api-secret-32-bytes' } });
        expect(accounts.status).toBe(200);
      }
      expect(await stop(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('prints its usage with --help and exits 0', async () => {
    const help = await finished(start(['--help']));
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: payform-sandbox \[options\]/);
    for (const flag of ['--port <n>', '--host <address>', '--projects <file>', '--public-url <url>', 'SANDBOX_PROJECTS', 'PORT', 'HOST', '--version', 'SANDBOX_STRICT=1', 'SANDBOX_ALLOWED_HOSTS']) {
      expect(help.stdout).toContain(flag);
    }
    // Its docs travel with the package: the README online, and the guide it ships, read offline.
    expect(help.stdout).toContain('https://github.com/payform/payform/tree/main/server/sandbox#readme (offline: docs/sandbox.md in the installed package)');
  });

  it('prints its version with --version and exits 0', async () => {
    const { version } = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
    const answer = await finished(start(['--version']));
    expect(answer.code).toBe(0);
    expect(answer.stdout).toBe(`@payform/sandbox ${version}\n`);
  });

  it('says how to choose another port when its port is taken', async () => {
    const first = start([]);
    try {
      const { url } = await listening(first);
      const port = new URL(url).port;
      const second = await finished(start(['--port', port]));
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`payform sandbox could not start: port ${port} (from --port) is already in use: choose another with --port <n> or SANDBOX_PORT (0 takes any free one)`);
    } finally {
      await stop(first);
    }
  });
});

describe('the package README (server/sandbox/README.md, shipped in the tarball)', () => {
  it('names every test card and the test project’s sub-merchants, and links only to absolute addresses', async () => {
    const readme = await readFile('server/sandbox/README.md', 'utf8');
    for (const card of TEST_CARDS) expect(readme).toContain(formatCardNumber(card.number));
    for (const merchant of TEST_SUB_MERCHANTS) expect(readme).toContain(merchant.id);
    // The tarball holds dist/, the README, the changelog and the licence: the repository's docs/
    // are not in it, so a relative link would lead nowhere.
    const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^https:\/\//);
    expect(readme).toContain('https://github.com/payform/payform/blob/main/docs/sandbox.md');
  });
});
