/** The record without its undefined fields: optional properties stay absent rather than `undefined`. */
export function definedFields<T extends object>(record: T): T {
  // A plain loop: this runs several times per webhook, and entries → filter → fromEntries
  // allocates three arrays per call.
  const defined: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const value = (record as Record<string, unknown>)[key];
    if (value !== undefined) defined[key] = value;
  }
  return defined as T;
}
