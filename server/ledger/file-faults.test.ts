// What a ledger file's refusal says for each thing that can stand in its way — said for every
// code, whoever runs the tests (root reads a file of mode 000, so sqlite.test.ts meets EACCES
// only as another user) — and what is found on a real path.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileFaultProblem, fileFaultRefusal, ledgerFileFault } from './file-faults.js';

const uid = process.getuid === undefined ? '' : `; the companion runs as uid ${process.getuid()}`;

describe('a ledger file’s refusal', () => {
  it('says a folder at the file’s path is one, with a file in it to name instead', () => {
    expect(fileFaultProblem('/srv/shop/data', { code: 'EISDIR', path: '/srv/shop/data' })).toBe(
      '/srv/shop/data is a folder, not a file: point PAYFORM_DATABASE_URL at a file in it, e.g. /srv/shop/data/payform.db',
    );
  });

  it('names the file standing where a folder of the path should be', () => {
    expect(fileFaultProblem('/srv/shop/data/ledgers/payform.db', { code: 'ENOTDIR', path: '/srv/shop/data' })).toBe(
      '/srv/shop/data is a file, not a folder, so /srv/shop/data/ledgers/payform.db cannot be made: point PAYFORM_DATABASE_URL at a file in a folder',
    );
  });

  it('says a file its user may not read is the file’s permissions, not its folder’s', () => {
    expect(fileFaultProblem('/srv/shop/payform.db', { code: 'EACCES', path: '/srv/shop/payform.db', mode: 0o000, owner: 0 })).toBe(
      `/srv/shop/payform.db cannot be read and written by the companion's user (mode 000, owned by uid 0${uid}): ` +
        'give that user read and write access to it (chown it to that user, or chmod u+rw), or point PAYFORM_DATABASE_URL at another file',
    );
  });

  it('says a read-only file system as one: no permission would make it writable', () => {
    expect(fileFaultProblem('/srv/shop/data/payform.db', { code: 'EROFS', path: '/srv/shop/data' })).toBe(
      '/srv/shop/data is on a read-only file system: mount a writable volume there (a container with a read-only root needs one for the ledger), ' +
        'or point PAYFORM_DATABASE_URL at a file on one',
    );
  });

  it('names a -wal or -shm file its user may not write, and says never to delete it', () => {
    expect(fileFaultProblem('/srv/shop/payform.db', { code: 'EACCES', path: '/srv/shop/payform.db-wal', mode: 0o644, owner: 0, beside: true })).toBe(
      `/srv/shop/payform.db-wal, SQLite's file beside the ledger, cannot be read and written by the companion's user (mode 644, owned by uid 0${uid}): ` +
        "chown it (and payform.db's other files) to that user, or chmod u+rw — never delete it: a -wal file holds payments not yet written into the ledger's file",
    );
  });

  it('names the folder its user may not write to, where the file and its -wal and -shm files go', () => {
    expect(fileFaultProblem('/srv/shop/data/payform.db', { code: 'EACCES', path: '/srv/shop', mode: 0o755, owner: 0 })).toBe(
      `the companion's user may not create files in /srv/shop (mode 755, owned by uid 0${uid}), where SQLite keeps payform.db and its -wal and -shm files: ` +
        'give that user write access to the folder, or point PAYFORM_DATABASE_URL at a file in a folder it may write to',
    );
  });
});

describe('what stands in the way of a ledger file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'payform-file-faults-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is nothing for a file that may be made, or one that is there', () => {
    expect(ledgerFileFault(join(dir, 'data', 'payform.db'))).toBeUndefined();
    writeFileSync(join(dir, 'payform.db'), '');
    expect(ledgerFileFault(join(dir, 'payform.db'))).toBeUndefined();
  });

  it('is a folder at the path, or a file where a folder should be, found however far up', () => {
    mkdirSync(join(dir, 'payform.db'));
    expect(ledgerFileFault(join(dir, 'payform.db'))).toEqual({ code: 'EISDIR', path: join(dir, 'payform.db') });
    writeFileSync(join(dir, 'data'), '');
    expect(ledgerFileFault(join(dir, 'data', 'ledgers', 'payform.db'))).toEqual({ code: 'ENOTDIR', path: join(dir, 'data') });
  });
});

describe('a relative ledger path', () => {
  it('is refused naming the folder from the root, not "."', () => {
    const cwd = process.cwd();
    const dir = mkdtempSync(join(tmpdir(), 'payform-file-faults-'));
    try {
      writeFileSync(join(dir, 'data'), '');
      process.chdir(dir);
      expect(fileFaultRefusal('data/payform.db', new Error('ENOTDIR'))?.message).toBe(
        `${join(realpathSync(dir), 'data')} is a file, not a folder, so ${join(realpathSync(dir), 'data', 'payform.db')} cannot be made: point PAYFORM_DATABASE_URL at a file in a folder`,
      );
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
