/**
 * `npm run sandbox` as a user runs it: a child process that prints its URL and credentials,
 * answers over HTTP, and stops on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

describe('npm run sandbox (server/sandbox/main.ts)', () => {
  it('listens, prints URL and credentials, serves the API and stops on SIGTERM', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/sandbox/main.ts'], {
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_HOST: '127.0.0.1', GATEWAY_API_KEY: 'printed-key', GATEWAY_POS_ID: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          const match = /GATEWAY_BASE_URL=(\S+)/.exec(output);
          if (match?.[1] && output.includes('GATEWAY_ENDPOINTS_KEY=')) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`sandbox exited (${String(code)}): ${output}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(output).toContain('GATEWAY_API_KEY=printed-key');
      expect(output).toContain('GATEWAY_POS_ID=5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15'); // empty variable: the default
      expect(output).toContain('GATEWAY_API_SECRET=sandbox-test-api-secret');
      expect(await (await fetch(`${url}/health`)).text()).toBe('OK');
      const accounts = await fetch(`${url}/api/v1/balances/pos/5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15/accounts`, {
        headers: { 'X-API-AUTH': 'CPAY printed-key:sandbox-test-api-secret' },
      });
      expect(accounts.status).toBe(200);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
