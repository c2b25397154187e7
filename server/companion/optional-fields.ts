/** The record without its undefined fields: optional properties stay absent rather than `undefined`. */
export function definedFields<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
