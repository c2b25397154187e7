// Keyset paging for the back office's lists: newest first on (a time, a unique key), the cursor
// naming the last row shown. Unlike an offset, a page does not shift while new rows arrive, and
// the next page starts with an index seek however deep it is.
import { sql } from 'kysely';
import type { SelectQueryBuilder, SqlBool } from 'kysely';
import { InvalidLedgerInput } from './errors.js';

const DEFAULT_PAGE = 50;

export interface PagePosition {
  readonly time: number;
  readonly key: string;
}

/** The lists paged so: a cursor names its own, and another list refuses it rather than page from a position of another kind. */
export type PagedList = 'orders' | 'events' | 'movements';

/** How many rows, after which one, of which list: a checked `{ limit?, cursor? }`. */
export interface PageRequest {
  readonly list: PagedList;
  readonly limit: number;
  readonly position: PagePosition | undefined;
}

function encodeCursor(list: PagedList, position: PagePosition): string {
  return Buffer.from(`${list}|${position.time}:${position.key}`).toString('base64url');
}

function decodeCursor(list: PagedList, text: string): PagePosition {
  // No key the ledger gives holds a control character, and PostgreSQL's text cannot hold NUL.
  // Without its list's name: a cursor of 0.3's first releases, taken as this list's while
  // instances of both serve one shop (a rolling deploy).
  const match = /^(?:([a-z]+)\|)?(\d{1,16}):(\P{Cc}+)$/u.exec(Buffer.from(text, 'base64url').toString());
  if (!match?.[2] || !match[3]) throw new InvalidLedgerInput('cursor', 'is not a cursor this ledger returned');
  if (match[1] !== undefined && match[1] !== list) throw new InvalidLedgerInput('cursor', `is a cursor of another list (${match[1]}): page each list with the next_cursor it returned`);
  return { time: Number(match[2]), key: match[3] };
}

export function pageRequest(list: PagedList, query: { readonly limit?: number | undefined; readonly cursor?: string | undefined }): PageRequest {
  return { list, limit: query.limit ?? DEFAULT_PAGE, position: query.cursor === undefined ? undefined : decodeCursor(list, query.cursor) };
}

/**
 * For `.$call()` on a SELECT: newest first on (time, key), from just after the request's position,
 * one row more than the page (it says whether there is a next one). The position is a row-value
 * comparison, so SQLite and PostgreSQL alike seek the (…, time, key) index to it.
 */
export function newestFirst(timeColumn: string, keyColumn: string, page: Pick<PageRequest, 'limit' | 'position'>) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> =>
    query
      .$call(after(timeColumn, keyColumn, page.position))
      .orderBy(sql.ref(timeColumn), 'desc')
      .orderBy(sql.ref(keyColumn), 'desc')
      .limit(page.limit + 1);
}

/** For `.$call()` on a SELECT: the rows after `position` newest first (all of them without one). */
export function after(timeColumn: string, keyColumn: string, position: PagePosition | undefined) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> =>
    position === undefined ? query : query.where(sql<SqlBool>`(${sql.ref(timeColumn)}, ${sql.ref(keyColumn)}) < (${position.time}, ${position.key})`);
}

/** For `.$call()` on a SELECT: the rows up to `position` newest first, it included. */
export function upTo(timeColumn: string, keyColumn: string, position: PagePosition) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> =>
    query.where(sql<SqlBool>`(${sql.ref(timeColumn)}, ${sql.ref(keyColumn)}) >= (${position.time}, ${position.key})`);
}

/** The page out of the rows `newestFirst` read, and the cursor of the next one (null at the end). */
export function pageOf<T>(rows: readonly T[], page: PageRequest, position: (row: T) => PagePosition): { readonly items: T[]; readonly nextCursor: string | null } {
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last !== undefined ? encodeCursor(page.list, position(last)) : null };
}
