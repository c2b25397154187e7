/**
 * A ledger that fails every call while `away()` holds, as one whose SQLite file another process
 * holds locked does (SQLITE_BUSY: the companion answers 503 ledger_unavailable), and works again
 * as soon as it does not.
 */
import type { Ledger } from '../ledger.js';

export function awayWhile(ledger: Ledger, away: () => boolean): Ledger {
  return new Proxy(ledger, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => (away() ? Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}
