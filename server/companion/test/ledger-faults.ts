// A test ledger that fails once, as a database going away does, at a chosen method.
import type { Ledger } from '../../ledger/index.js';
import { fileBackend } from '../../ledger/testing/databases.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';

/**
 * A SQLite file whose ledger's `method` does `instead` once (given the real method and its
 * arguments), the first time it is called once `armed` says so.
 */
export function onceInstead(method: keyof Ledger, instead: (real: (...args: unknown[]) => Promise<unknown>, args: unknown[]) => Promise<unknown>, armed = () => true): LedgerBackend {
  return {
    ...fileBackend,
    async open(clock) {
      const opened = await fileBackend.open(clock);
      let done = false;
      const ledger = new Proxy(opened.ledger, {
        get(target, name, receiver) {
          const value: unknown = Reflect.get(target, name, receiver);
          if (name !== method || done || typeof value !== 'function' || !armed()) return value;
          done = true;
          return (...args: unknown[]) => instead((...given) => (value as (...a: unknown[]) => Promise<unknown>).apply(target, given), args);
        },
      });
      return { ...opened, ledger };
    },
  };
}

/**
 * `method` fails once as the database going away does (SQLITE_BUSY: another process held its lock
 * too long), having done its work first when `committed` — a connection cut between the commit
 * and its answer.
 */
export const awayOnce = (method: keyof Ledger, committed: boolean, armed?: () => boolean): LedgerBackend =>
  onceInstead(
    method,
    async (real, args) => {
      if (committed) await real(...args);
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    },
    armed,
  );
