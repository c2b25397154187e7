/**
 * The query parameters of a PostgreSQL URL that nothing reads. node-postgres takes every
 * parameter into its settings and uses only its own; the rest (Prisma's `connection_limit`, libpq's
 * `target_session_attrs`, a typo of `sslmode`) would change nothing, and the operator who wrote
 * them would believe they hold. They are warned of, not refused: one DATABASE_URL is often shared
 * with the shop's own ORM, which reads them.
 */

/** What node-postgres (its connection string and client settings) and the ledger itself read. */
const READ = new Set([
  'host', 'port', 'user', 'password', 'database', 'db', 'encoding', 'client_encoding', 'options', 'binary',
  'replication', 'application_name', 'fallback_application_name',
  'statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'query_timeout',
  'ssl', 'sslmode', 'sslcert', 'sslkey', 'sslrootcert', 'sslnegotiation', 'uselibpqcompat',
  'pgbouncer',
]);

/** What other tools take for a schema in a URL's query; node-postgres ignores them all (ledger.ts judges their value). */
export const SCHEMA_PARAMETERS = new Set(['schema', 'currentschema', 'search_path', 'searchpath']);

/** What the ledger sets itself, so that the URL's value would be overridden or left unused. */
const SET_BY_LEDGER: Readonly<Record<string, string>> = {
  connection_limit: 'the ledger keeps a pool of 10 connections an instance (poolSize when the ledger is opened from code)',
  connect_timeout: 'the ledger gives up connecting after 5 s',
  pool_timeout: 'a request waits at most 5 s for a connection of the pool',
};

/** One warning a parameter nobody reads, naming it and what to do instead; none for a URL that is not PostgreSQL's. */
export function unreadUrlParameters(url: string): string[] {
  const parsed = URL.parse(url);
  if (!parsed) return [];
  const seen = new Set<string>();
  const warnings: string[] = [];
  for (const name of parsed.searchParams.keys()) {
    if (READ.has(name) || SCHEMA_PARAMETERS.has(name.toLowerCase()) || seen.has(name)) continue;
    seen.add(name);
    const instead = SET_BY_LEDGER[name.toLowerCase()];
    warnings.push(
      `ledger: ?${name}= in the PostgreSQL URL is not read by node-postgres, the ledger's driver, so it changes nothing` +
        (instead ? ` (${instead})` : READ.has(name.toLowerCase()) ? ` (parameter names are case-sensitive: write ?${name.toLowerCase()}=)` : '') +
        ': remove it from the URL the companion gets, or keep it if another program reading the same URL needs it',
    );
  }
  return warnings;
}
