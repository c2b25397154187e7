/**
 * `npm start`'s stack in this process: the sandbox's variables read as `npx payform-sandbox`
 * reads them (readSandboxEnvironment), a wrong one refused before anything listens, a misspelt
 * one warned of once; and what else stops a first run before anything listens, each naming its
 * fix. main.test.ts runs the same entry as a user does, and sees a refusal printed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startStack } from './stack.js';

const base = { PORT: '0', SANDBOX_PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_LOG_LEVEL: 'error' };
/** A port held by another program for the test's length, as another run holds it. */
async function holdPort(): Promise<{ port: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: String((server.address() as AddressInfo).port), server };
}

const refusal = (env: Record<string, string>) => startStack({ env: { ...base, ...env }, sandboxLog: () => {} }).then(() => 'started', (error: unknown) => String(error));

describe("npm start's sandbox variables", () => {
  it('warns once of a misspelt one, naming the one meant, and runs', async () => {
    const lines: string[] = [];
    const stack = await startStack({ env: { ...base, SANDBOX_PUBLICURL: 'http://sandbox.test' }, sandboxLog: (line) => lines.push(line) });
    await stack.close();
    expect(lines.filter((line) => line.includes('SANDBOX_PUBLICURL'))).toEqual(['SANDBOX_PUBLICURL is set, and the sandbox does not read it: did you mean SANDBOX_PUBLIC_URL?']);
  });

  it('refuses SANDBOX_HOST as a URL, naming what to write', async () => {
    expect(await refusal({ SANDBOX_HOST: 'http://127.0.0.1:4000' })).toContain(
      'Invalid environment: SANDBOX_HOST takes an address, not a URL ("http://127.0.0.1:4000"): SANDBOX_HOST=127.0.0.1 and SANDBOX_PORT=4000',
    );
  });

  it('refuses SANDBOX_PUBLIC_URL with a query, and a value kept in quotes, naming each', async () => {
    const said = await refusal({ SANDBOX_PUBLIC_URL: 'http://127.0.0.1:4000/?x=1', SANDBOX_STRICT: '"1"' });
    expect(said).toContain('SANDBOX_PUBLIC_URL must have no query or fragment, which would end up inside every link it hands out: SANDBOX_PUBLIC_URL=http://127.0.0.1:4000');
    expect(said).toContain('SANDBOX_STRICT is wrapped in quotes');
  });

  it('refuses SANDBOX_PROJECTS, which its sandbox does not read, naming the way to run one', async () => {
    const said = await refusal({ SANDBOX_PROJECTS: 'docs/sandbox-projects.example.json' });
    expect(said).toContain('SANDBOX_PROJECTS is not read by npm start');
    expect(said).toContain('npx payform-sandbox --projects <file>');
    expect(said).toContain('PAYFORM_GATEWAY_BASE_URL');
  });

  it('leaves PORT and HOST to the shop: neither moves the sandbox', async () => {
    const stack = await startStack({ env: { ...base, SANDBOX_PORT: '0', HOST: 'sandbox.invalid' }, sandboxLog: () => {} });
    await stack.close();
    expect(new URL(stack.sandboxUrl!).hostname).toBe('127.0.0.1');
  });
});

describe('npm start refuses to start, naming the fix', () => {
  it('names every wrong variable in one refusal: the companion’s, the demo’s and the sandbox’s', async () => {
    const said = await refusal({ PORT: 'eighty', PAYFORM_DEMO_CARD_ENTRY: 'direct', SANDBOX_PORT: 'x' });
    expect(said).toMatch(/^TypeError: Invalid environment: /);
    expect(said).toContain('PORT: must be a port number');
    expect(said).toContain('PAYFORM_DEMO_CARD_ENTRY must be tokenize or relay, not "direct"');
    expect(said).toContain('SANDBOX_PORT must be a port number');
  });

  it('refuses the bin’s back-office variables, which the shop’s own back office would override', async () => {
    const said = await refusal({ PAYFORM_BACK_OFFICE: '/office', PAYFORM_BACK_OFFICE_SELLERS: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60=Roasters' });
    expect(said).toContain('PAYFORM_BACK_OFFICE and PAYFORM_BACK_OFFICE_SELLERS are not read by npm start, whose back office is at /admin');
    expect(said).toContain('npm run companion');
    expect(said).not.toContain('needs PAYFORM_BACK_OFFICE');
  });

  it('warns once of a misspelt demo variable, naming the one meant, and runs', async () => {
    const lines: string[] = [];
    const stack = await startStack({ env: { ...base, PAYFORM_DEMO_CARD_ENTRI: 'relay', PAYFORM_DEMO: 'relay' }, log: (line) => lines.push(line), sandboxLog: () => {} });
    await stack.close();
    expect(lines).toEqual([
      'PAYFORM_DEMO_CARD_ENTRI is not a variable of the demo and is ignored: did you mean PAYFORM_DEMO_CARD_ENTRY?',
      'PAYFORM_DEMO is not a variable of the demo and is ignored: did you mean PAYFORM_DEMO_CARD_ENTRY?',
    ]);
  });

  it('says how to start afresh when an older run’s ledger file cannot be opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-stale-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'payform.db');
    writeFileSync(file, 'not a SQLite file, as a broken copy leaves it');
    const said = await refusal({ PAYFORM_DATABASE_URL: file });
    expect(said).toContain(`the ledger could not be opened (PAYFORM_DATABASE_URL ${file}): ${file} is not a SQLite database (file is not a database)`);
    expect(said).toContain(`for the demo, move ${file} aside (or delete it: its orders go) to start a new one, or set PAYFORM_DATABASE_URL=:memory:`);
  });

  it('says the sandbox’s port is in use, and how to take another', async () => {
    const sandbox = await holdPort();
    try {
      expect(await refusal({ SANDBOX_PORT: sandbox.port })).toBe(
        `Error: port ${sandbox.port} is already in use: set SANDBOX_PORT to a free port, or SANDBOX_PORT=0 to take any free one`,
      );
    } finally {
      sandbox.server.close();
    }
  });

  it('takes both ports in use for a run already going, and names both variables at once', async () => {
    const [shop, sandbox] = await Promise.all([holdPort(), holdPort()]);
    try {
      const said = await refusal({ PORT: shop.port, SANDBOX_PORT: sandbox.port });
      expect(said).toContain(`ports ${shop.port} and ${sandbox.port} are both in use, most likely by an npm start still running: stop it (Ctrl-C in its terminal)`);
      expect(said).toContain('set PORT and SANDBOX_PORT to free ports');
      expect(said).toContain('PAYFORM_DATABASE_URL=:memory:');
    } finally {
      shop.server.close();
      sandbox.server.close();
    }
  });
});
