// A pooler in transaction mode between the ledger and PostgreSQL (PgBouncer's pool_mode =
// transaction; the pooled endpoints of Heroku, Supabase, Neon; most Kubernetes setups): each
// transaction may run on another server session, and between two of one client's transactions
// another client's may run on its session. A named prepared statement is then missing (or
// already there), and a SET reaches whichever client the session serves next.
import type pg from 'pg';

/**
 * "prepared statement … does not exist" and "… already exists": a connection here that is
 * not one server session. Either way the statement did not run.
 */
export const POOLED_STATEMENT = new Set(['26000', '42P05']);

/** How many times the two clients ask: each time another instance's traffic may hide the pooler. */
const LOOKS = 8;

/**
 * Whether the pool's clients are not each one server session. On a direct connection (or a
 * pooler in session mode) a client keeps its server process, and two clients never share one;
 * behind a transaction pooler a client moves, and the next client gets the session the last one
 * left idle. Two clients held at once ask for their server process a few times: either sign
 * tells. Only at start; the pool keeps both connections for what follows.
 */
export async function sharesBackends(pool: pg.Pool): Promise<boolean> {
  // A pool of one cannot hold two: the first named statement that fails tells instead.
  if (pool.options.max < 2) return false;
  const first = await pool.connect().catch(explainRefusedOptions);
  try {
    const second = await pool.connect().catch(explainRefusedOptions);
    try {
      const pid = async (client: pg.PoolClient) => (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      const seen = [new Set<number | undefined>(), new Set<number | undefined>()];
      for (let look = 0; look < LOOKS; look += 1) {
        const [a, b] = [await pid(first), await pid(second)];
        seen[0]!.add(a);
        seen[1]!.add(b);
        if (a === b || seen[0]!.size > 1 || seen[1]!.size > 1) return true;
      }
      return false;
    } finally {
      second.release();
    }
  } finally {
    first.release();
  }
}

/**
 * PgBouncer refuses a connection that carries `options` (where the ledger's schema goes,
 * `-c search_path=…`): say what to do instead. Ignoring it (ignore_startup_parameters) would
 * be worse: the ledger's tables would land in the role's default schema without a word.
 */
export function explainRefusedOptions(error: unknown): never {
  if (error instanceof Error && /unsupported startup parameter: options/i.test(error.message)) {
    throw new Error(
      `ledger: the server refused the connection's options parameter, which carries the ledger's schema (search_path) — a pooler such as PgBouncer (${error.message}). ` +
        "Set the schema on the database role instead (ALTER ROLE <user> SET search_path = payform) and leave it out of the URL and the schema option, or connect to PostgreSQL directly",
      { cause: error },
    );
  }
  throw error;
}

/**
 * `?pgbouncer=true` in the ledger's URL (the flag Prisma reads too): the operator says the
 * server connections are a transaction pooler's. Certain where the look at start is not (another
 * instance's traffic can hide the pooler from it). Taken out of the URL node-postgres reads.
 */
export function poolerFlag(url: string): { readonly url: string; readonly declared: boolean } {
  const flag = /([?&])pgbouncer=(true|false)(&|$)/i.exec(url);
  if (!flag) return { url, declared: false };
  const rest = url.slice(0, flag.index) + (flag[3] ? flag[1] : '') + url.slice(flag.index + flag[0].length);
  return { url: rest, declared: flag[2]!.toLowerCase() === 'true' };
}
