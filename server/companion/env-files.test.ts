// The bin's --env-file, read as Node's own option reads files: what is set already wins, then
// the later file; what Node reads only at its start is named, not silently dropped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadEnvFiles } from './env-files.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'payform-env-files-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, content: string): string {
  writeFileSync(join(folder, name), content);
  return join(folder, name);
}

it('sets what the environment lacks, the later file winning over the earlier', () => {
  const shared = file('.env', '# the shop\nPORT=3000\nPAYFORM_PUBLIC_URL=https://shop.example\nPAYFORM_ADMIN_TOKEN="from the file"\n');
  const local = file('.env.local', 'PORT=4000\nexport PAYFORM_BACK_OFFICE=/admin\n');
  const env: NodeJS.ProcessEnv = { PAYFORM_ADMIN_TOKEN: 'from-the-environment', PAYFORM_PUBLIC_URL: '' };
  expect(loadEnvFiles([shared, local], env)).toEqual({ late: [] });
  expect(env).toEqual({ PAYFORM_ADMIN_TOKEN: 'from-the-environment', PAYFORM_PUBLIC_URL: '', PORT: '4000', PAYFORM_BACK_OFFICE: '/admin' });
});

it('names what Node reads only as it starts, and a file it cannot read, setting nothing then', () => {
  const env: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: '16' };
  expect(loadEnvFiles([file('.env', 'NODE_EXTRA_CA_CERTS=/etc/ssl/shop.pem\nUV_THREADPOOL_SIZE=64\nPORT=3000\n')], env)).toEqual({ late: ['NODE_EXTRA_CA_CERTS', 'UV_THREADPOOL_SIZE'] });
  expect(env.UV_THREADPOOL_SIZE).toBe('16');

  const missing = join(folder, 'missing.env');
  const untouched: NodeJS.ProcessEnv = {};
  expect(loadEnvFiles([file('.env', 'PORT=3000\n'), missing], untouched)).toEqual({
    problem: `--env-file ${missing} cannot be read (ENOENT: no such file or directory, open '${missing}'): give the path of your .env file`,
  });
  expect(untouched).toEqual({});
  expect(loadEnvFiles([folder], untouched)).toMatchObject({ problem: expect.stringMatching(/cannot be read \(EISDIR/) });
});

it('reads a file saved with a byte order mark as its editor shows it', () => {
  const env: NodeJS.ProcessEnv = {};
  expect(loadEnvFiles([file('.env', '\uFEFFPAYFORM_GATEWAY_BASE_URL=http://127.0.0.1:3001\nPORT=3000\n')], env)).toEqual({ late: [] });
  expect(env).toEqual({ PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:3001', PORT: '3000' });
});
