/**
 * The CPU PostgreSQL's own server processes spend for one client: the backends whose
 * application_name is the client's (set through PGAPPNAME in its environment), read from
 * /proc. PostgreSQL shares the cores with the companion, so a delivery costs both. Only when
 * the server runs on this machine: for a remote one (its pids not ours to read) it is unknown.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { processCpuMs } from './processes.js';

export interface DatabaseCpu {
  /** The application name the measured client must connect with (PGAPPNAME). */
  readonly applicationName: string;
  /** CPU ms of those backends so far, by pid; undefined when they are not on this machine. */
  sample(): Promise<ReadonlyMap<number, number> | undefined>;
}

/** A server on another machine may have pids that are this machine's processes'. */
function onThisMachine(url: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]', ''].includes(new URL(url).hostname);
}

export function databaseCpu(url: string): DatabaseCpu {
  const applicationName = `payform-bench-${randomBytes(4).toString('hex')}`;
  return {
    applicationName,
    async sample() {
      if (!onThisMachine(url)) return undefined;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [applicationName]);
        return new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)]));
      } catch {
        return undefined;
      } finally {
        await client.end();
      }
    },
  };
}

/** CPU ms the backends used between two samples (a backend opened meanwhile counts from zero). */
export function usedBetween(before: ReadonlyMap<number, number> | undefined, after: ReadonlyMap<number, number> | undefined): number | undefined {
  if (!before || !after) return undefined;
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}
