/**
 * The code an error carries (ECONNREFUSED, ENOTFOUND, a SQLSTATE, SQLITE_FULL), or the first of
 * its causes': fetch and the drivers wrap the socket's or the database's error, and the code is
 * what an operator searches for. Node's happy-eyeballs connect fails with one error per address
 * tried (an AggregateError): the first one's. A few levels deep at most.
 */
export function errorCode(error: unknown, depth = 0): string | undefined {
  if (!(error instanceof Error) || depth > 3) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return errorCode(error.errors[0], depth + 1);
  return errorCode(error.cause, depth + 1);
}
