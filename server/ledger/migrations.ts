// Versioned schema. Names sort in the order they run; a released migration is never edited,
// a change is a new entry. Kysely's Migrator records them in `ledger_migration` and, on
// PostgreSQL, holds an advisory lock so two instances starting at once migrate once.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, SqliteAdapter } from 'kysely';
import type { Kysely, Migration, RawBuilder, SqlBool } from 'kysely';

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('checkout_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().unique())
      .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('purchase', 'auth')`))
      .addColumn('split', 'text')
      .addColumn('customer', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text')
      .addColumn('return_url', 'text')
      .addColumn('allowed_modes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_at', 'bigint')
      .execute();

    // No column can hold a card number or CVV: the ledger keeps the gateway's mask and token.
    await db.schema
      .createTable('payments')
      .addColumn('order_id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().references('checkout_sessions.id'))
      .addColumn('attempt', 'integer', (c) => c.notNull().check(sql`attempt > 0`))
      .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('direct', 'hosted')`))
      .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('purchase', 'auth')`))
      .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('split', 'text')
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('init', 'pending', 'success', 'failure')`))
      .addColumn('status_code', 'text')
      .addColumn('status_description', 'text')
      .addColumn('payment_id', 'text')
      .addColumn('gateway_order_id', 'text')
      .addColumn('billing_order_id', 'text')
      .addColumn('transaction_id', 'text')
      .addColumn('cc_mask', 'text')
      .addColumn('card_brand', 'text')
      .addColumn('cc_token', 'text')
      .addColumn('cc_token_expiration', 'text')
      .addColumn('user_action_url', 'text')
      .addColumn('checkout_url', 'text')
      .addColumn('receipt_url', 'text')
      .addColumn('customer', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('finalized_at', 'bigint')
      .addUniqueConstraint('payments_session_attempt', ['session_id', 'attempt'])
      .execute();
    // The database itself guarantees one attempt in flight (or paid) per session.
    await db.schema
      .createIndex('payments_one_live_attempt')
      .on('payments')
      .column('session_id')
      .unique()
      .where(sql.raw<SqlBool>(`status in ('init', 'pending', 'success')`))
      .execute();
    await db.schema.createIndex('payments_newest').on('payments').columns(['created_at', 'order_id']).execute();
    await db.schema.createIndex('payments_by_status').on('payments').columns(['status', 'created_at', 'order_id']).execute();

    await db.schema
      .createTable('operations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('payments.order_id'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('capture', 'void', 'refund')`))
      .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'success', 'failure')`))
      .addColumn('operation_id', 'text', (c) => c.unique())
      .addColumn('status_code', 'text')
      .addColumn('status_description', 'text')
      .addColumn('comment', 'text')
      .addColumn('split', 'text')
      .addColumn('receipt_url', 'text')
      .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('merchant', 'gateway')`))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('settled_at', 'bigint')
      .execute();
    await db.schema.createIndex('operations_of_order').on('operations').columns(['order_id', 'created_at']).execute();
    await db.schema.createIndex('operations_by_status').on('operations').columns(['status', 'created_at']).execute();

    // The primary key is the SHA-256 of the raw `data` field: a duplicate delivery cannot be
    // stored twice, whichever instance receives it.
    await db.schema
      .createTable('webhook_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('order_id', 'text', (c) => c.notNull())
      .addColumn('operation_id', 'text')
      .addColumn('payment_id', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('facts', 'text', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('applied_at', 'bigint')
      .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('applied', 'stale', 'parked', 'unmatched')`))
      .execute();
    await db.schema.createIndex('webhook_events_of_order').on('webhook_events').columns(['order_id', 'received_at']).execute();
    await db.schema
      .createIndex('webhook_events_waiting')
      .on('webhook_events')
      .columns(['received_at'])
      .where(sql.raw<SqlBool>('applied_at is null'))
      .execute();

    await db.schema
      .createTable('saved_cards')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('cc_token', 'text', (c) => c.notNull())
      .addColumn('cc_mask', 'text', (c) => c.notNull())
      .addColumn('brand', 'text')
      .addColumn('token_expiration', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('saved_cards_customer_token', ['customer_id', 'cc_token'])
      .execute();
  },
};

/**
 * Operations get a "last heard of or checked" time, as payments have: the reconciler marks
 * what it looked at, so a batch of reservations still pending at the gateway cannot keep the
 * newer ones from ever being looked at.
 */
const operationChecks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('operations').addColumn('last_seen_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update operations set last_seen_at = updated_at`.execute(db);
    await db.schema.dropIndex('operations_by_status').execute();
    await db.schema.createIndex('operations_unsettled').on('operations').columns(['status', 'last_seen_at']).execute();
  },
};

/**
 * Webhook events not applied yet (parked, unmatched) get the time the ledger last tried them,
 * so the reconciler can retry them in turn without the ones that never apply starving others.
 */
const eventRetries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('webhook_events').addColumn('tried_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update webhook_events set tried_at = received_at`.execute(db);
    await db.schema.dropIndex('webhook_events_waiting').execute();
    await db.schema
      .createIndex('webhook_events_waiting')
      .on('webhook_events')
      .columns(['tried_at'])
      .where(sql.raw<SqlBool>('applied_at is null'))
      .execute();
  },
};

/**
 * A payment the gateway reports with other figures (a short payment on the hosted page, another
 * amount or currency) is flagged for a person to look at instead of being marked paid.
 */
const paymentDiscrepancies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payments').addColumn('mismatch_report', 'text').execute();
  },
};

/**
 * The back office lists the events that apply to nothing (unmatched, parked), newest first. A
 * partial index, so the webhooks that apply — nearly all of them — cost it nothing to store.
 */
const waitingEventList: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('webhook_events_waiting_newest')
      .on('webhook_events')
      .columns(['outcome', 'received_at', 'id'])
      .where(sql.raw<SqlBool>('applied_at is null'))
      .execute();
  },
};

/**
 * The merchant's `onPaymentEvent` hook is told each change at least once: the statement that
 * moves a payment or operation forward (or flags a discrepancy) also marks it due, and the mark
 * is cleared once the hook has been told. `notice_due_at` is when it may next be told by
 * reconciliation (a lease while a teller is at it), `notice_attempts` how often that failed.
 * Partial indexes: only the few rows not told yet are in them.
 */
const merchantNotices: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['payments', 'operations']) {
      await db.schema.alterTable(table).addColumn('notice_due_at', 'bigint').execute();
      await db.schema.alterTable(table).addColumn('notice_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createIndex(`${table}_notice_due`)
        .on(table)
        .column('notice_due_at')
        .where(sql.raw<SqlBool>('notice_due_at is not null'))
        .execute();
    }
  },
};

/**
 * Idempotency keys of the merchant API (server/ledger/idempotency.ts): the primary key is the
 * client's key, so the insert that claims one is the lock across instances. `expires_at` is
 * indexed for the sweep of keys past their lifetime.
 */
const idempotencyKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('in_progress', 'done')`))
      .addColumn('claim_id', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('status', 'integer')
      .addColumn('content_type', 'text')
      .addColumn('body', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
  },
};

/**
 * An attempt or reservation the gateway answers "no such order" (or does not show) for is
 * counted, read by spaced read, so that a window of consistent answers ends it as never sent
 * (see absence.ts). `unsent_at` marks a payment attempt so ended: its session may send it
 * again under the same order id.
 */
const neverSent: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['payments', 'operations']) {
      await db.schema.alterTable(table).addColumn('absent_reads', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable(table).addColumn('absent_read_at', 'bigint').execute();
    }
    await db.schema.alterTable('payments').addColumn('unsent_at', 'bigint').execute();
  },
};

/**
 * Sessions and payments may be card verifications (`lookup`): the method's CHECK takes it.
 * Payments get an index by customer (a saved card's charge reads who last paid with it).
 * PostgreSQL swaps the constraint. SQLite cannot alter a CHECK (and refuses to edit its schema
 * table), so the tables are rebuilt from their own DDL with the constraint changed: the new
 * copies are filled parents first, the old ones dropped children first (no row ever points
 * nowhere, with foreign keys on), then renamed into place, which repoints the references.
 */
const lookupMethod: Migration = {
  async up(db: Kysely<unknown>) {
    const before = `method in ('purchase', 'auth')`;
    const after = `method in ('purchase', 'auth', 'lookup')`;
    const tables = ['checkout_sessions', 'payments'];
    // A charge of a saved card reads who last paid with it.
    await db.schema
      .createIndex('payments_of_customer')
      .on('payments')
      .columns(['customer_id', 'created_at'])
      .where(sql.raw<SqlBool>('customer_id is not null'))
      .execute();
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      for (const table of tables) {
        await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_method_check`)}`.execute(db);
        await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_method_check`)} check (${sql.raw(after)})`.execute(db);
      }
      return;
    }
    type Entry = { type: string; name: string; tbl_name: string; sql: string | null };
    const schema = (await sql<Entry>`select type, name, tbl_name, sql from sqlite_schema where sql is not null`.execute(db)).rows;
    // Whatever references a rebuilt table is rebuilt too (operations, and any later child).
    const rebuilt = [...tables];
    for (let grew = true; grew; ) {
      grew = false;
      for (const entry of schema) {
        if (entry.type !== 'table' || rebuilt.includes(entry.name)) continue;
        if (rebuilt.some((table) => entry.sql!.includes(`references "${table}"`))) {
          rebuilt.push(entry.name);
          grew = true;
        }
      }
    }
    const copy = (table: string) => `${table}__rebuilt`;
    const indexes = schema.filter((entry) => entry.type === 'index' && rebuilt.includes(entry.tbl_name));
    for (const table of rebuilt) {
      let ddl = schema.find((entry) => entry.type === 'table' && entry.name === table)!.sql!;
      ddl = ddl.replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${copy(table)}"`).replace(before, after);
      for (const parent of rebuilt) ddl = ddl.replaceAll(`references "${parent}"`, `references "${copy(parent)}"`);
      await sql.raw(ddl).execute(db);
      await sql`insert into ${sql.table(copy(table))} select * from ${sql.table(table)}`.execute(db);
    }
    for (const table of [...rebuilt].reverse()) await sql`drop table ${sql.table(table)}`.execute(db);
    for (const table of rebuilt) await sql`alter table ${sql.table(copy(table))} rename to ${sql.table(table)}`.execute(db);
    for (const index of indexes) await sql.raw(index.sql!).execute(db);
  },
};

/**
 * The `payform_` prefix (table-names.ts), so the ledger lives beside a shop's own tables in one
 * database: every table is renamed, its rows and references kept (PostgreSQL follows references
 * by identity, SQLite rewrites them on rename). The indexes are renamed too: their names share
 * one namespace with every table's (PostgreSQL's `payments_pkey` would stop a shop's own
 * `payments`). SQLite cannot rename an index: it is made again under the new name.
 */
/**
 * The tables the first migrations create under names without the prefix, which 0010 adds: a
 * shop's own table of one of these names stops a new ledger's first start (migrate.ts).
 */
export const UNPREFIXED_TABLES = ['checkout_sessions', 'payments', 'operations', 'webhook_events', 'saved_cards', 'idempotency_keys'];

const payformPrefix: Migration = {
  async up(db: Kysely<unknown>) {
    const tables = UNPREFIXED_TABLES;
    const prefixed = (name: string) => (name.startsWith('payform_') ? name : `payform_${name}`);
    for (const table of tables) await sql`alter table ${sql.table(table)} rename to ${sql.table(prefixed(table))}`.execute(db);
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      const indexes = await sql<{ name: string }>`select indexname as name from pg_indexes
        where schemaname = current_schema() and tablename in (${sql.join(tables.map(prefixed))})`.execute(db);
      for (const { name } of indexes.rows) {
        if (name !== prefixed(name)) await sql`alter index ${sql.table(name)} rename to ${sql.table(prefixed(name))}`.execute(db);
      }
      return;
    }
    type Index = { name: string; sql: string };
    const indexes = await sql<Index>`select name, sql from sqlite_schema
      where type = 'index' and sql is not null and tbl_name in (${sql.join(tables.map(prefixed))})`.execute(db);
    for (const index of indexes.rows) {
      if (index.name === prefixed(index.name)) continue;
      const ddl = index.sql.replace(/^(create (?:unique )?index (?:if not exists )?)("?)([^"\s]+)\2/i, (_all, head: string, quote: string) => `${head}${quote}${prefixed(index.name)}${quote}`);
      await sql`drop index ${sql.table(index.name)}`.execute(db);
      await sql.raw(ddl).execute(db);
    }
  },
};

/**
 * A charge of a saved card opens a session of its own, whose id the customer gets in the 3-D
 * Secure link: `card_id` binds it to that card, so the link pays that charge with that card only.
 */
const chargeCards: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payform_checkout_sessions').addColumn('card_id', 'text').execute();
  },
};

/**
 * Idempotency keys are the merchant's who sent them: two merchants on one database each have
 * their own `refund-1`. The table is rebuilt with `scope` in the primary key (SQLite cannot change
 * one in place); keys kept from before get scope '' and are adopted by the first request of the
 * same content (only the credential that sent them can produce its fingerprint). `claim_id` is
 * unique: an answer is stored, or a key released, by the claim that holds it.
 */
const idempotencyScopes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('payform_idempotency_keys_scoped')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('in_progress', 'done')`))
      .addColumn('claim_id', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('status', 'integer')
      .addColumn('content_type', 'text')
      .addColumn('body', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('payform_idempotency_keys_scoped_pkey', ['scope', 'key'])
      .execute();
    await sql`insert into payform_idempotency_keys_scoped (scope, key, method, path, fingerprint, state, claim_id, locked_until, status, content_type, body, created_at, expires_at)
      select '', key, method, path, fingerprint, state, claim_id, locked_until, status, content_type, body, created_at, expires_at from payform_idempotency_keys`.execute(db);
    await db.schema.dropTable('payform_idempotency_keys').execute();
    await db.schema.alterTable('payform_idempotency_keys_scoped').renameTo('payform_idempotency_keys').execute();
    await db.schema.createIndex('payform_idempotency_keys_expiry').on('payform_idempotency_keys').column('expires_at').execute();
    await db.schema.createIndex('payform_idempotency_keys_claim').on('payform_idempotency_keys').column('claim_id').unique().execute();
  },
};

/**
 * A capture, void or refund reservation remembers the merchant request that made it (a digest of
 * its Idempotency-Key), so a retry of a request whose instance died learns what became of it.
 */
const operationRequestKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payform_operations').addColumn('request_key', 'text').execute();
  },
};

/**
 * The back office and the merchant API list the payments held for a discrepancy, newest first:
 * a partial index holds only those few rows, so the list reads them alone, and no write but the
 * one that flags a payment touches it.
 */
const heldPayments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('payform_payments_held')
      .on('payform_payments')
      .columns(['created_at', 'order_id'])
      .where(sql.raw<SqlBool>('mismatch_report is not null'))
      .execute();
  },
};

/**
 * An unmatched webhook event a person has looked at and settled elsewhere (another shop's, a
 * payment refunded at the gateway) is marked reviewed: it leaves the back office's list, the
 * retries and the operator's gauge, which otherwise held its alert firing for good.
 */
const reviewedEvents: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payform_webhook_events').addColumn('reviewed_at', 'bigint').execute();
  },
};

/** Whose payments the ledger holds (owner.ts): a setting or two, by key. */
const ledgerSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('payform_ledger_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * A capture, void or refund keeps the gateway's transaction for it, as a payment does: a
 * refund's receipt is fetched by it. Null on the operations recorded before, until a webhook
 * names it.
 */
const operationTransactions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payform_operations').addColumn('transaction_id', 'text').execute();
  },
};

/**
 * A customer's e-mail as the order search reads it and its index holds it: the JSON's `email`,
 * lower-cased. Exported so the query states the index's very expression (a database uses an
 * expression index only for the same text); as a released migration's, never edited.
 */
export const CUSTOMER_EMAIL = {
  sqlite: "lower(json_extract(customer, '$.email'))",
  postgres: "lower(customer::json ->> 'email')",
} as const;

/**
 * An index PostgreSQL builds while payments are written (CREATE INDEX CONCURRENTLY), after the
 * migrations' transaction: migrate.ts. `columns` is the text after the table's name.
 */
export interface OnlineIndex {
  readonly migration: string;
  readonly name: string;
  readonly table: string;
  readonly columns: string;
}

/**
 * Staff find an order by what a customer says on the phone: an e-mail (the index holds only
 * the orders that have one) or an amount, newest first as the list reads; a range of dates
 * takes the existing (created_at, order_id) index. Neither column is in a webhook's UPDATE, so
 * only the INSERT of a payment writes them on SQLite.
 */
function orderSearchIndexes(dialect: keyof typeof CUSTOMER_EMAIL): OnlineIndex[] {
  const email = CUSTOMER_EMAIL[dialect];
  const of = (name: string, columns: string): OnlineIndex => ({ migration: '0018_order_search', name, table: 'payform_payments', columns });
  return [of('payform_payments_by_email', `(${email}, created_at, order_id) where ${email} is not null`), of('payform_payments_by_amount', '(amount, created_at, order_id)')];
}

/**
 * Rows (payments; sessions for 0021, operations for 0023) from which a PostgreSQL ledger builds 0018's, 0020's, 0021's and 0023's indexes online: below it a plain build
 * holds the table's writes for milliseconds, and an online one would wait for every older
 * transaction in the whole database (another application's report, too) before the index is there.
 */
export const ONLINE_BUILD_PAYMENTS = 10_000;

/**
 * On PostgreSQL a plain CREATE INDEX holds every INSERT and UPDATE of the table for the whole
 * build (seconds on a million payments, past the ledger's 5 s statement deadline): there a
 * ledger of ONLINE_BUILD_PAYMENTS or more gets them from index-builds.ts, in the background
 * once the ledger is open; a smaller one here, at once. SQLite writes one at a time anyway: built here.
 */
const orderSearch = indexesBuiltOnline(orderSearchIndexes);

/** A migration that builds `indexes` (all of one table): here, or online after it (above). */
function indexesBuiltOnline(indexes: (dialect: keyof typeof CUSTOMER_EMAIL) => OnlineIndex[]): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const dialect = db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
      const table = sql.table(indexes(dialect)[0]!.table);
      if (dialect === 'postgres' && (await sql`select 1 from ${table} offset ${ONLINE_BUILD_PAYMENTS - 1} limit 1`.execute(db)).rows.length > 0) return;
      for (const index of indexes(dialect)) await sql.raw(`create index ${index.name} on ${index.table} ${index.columns}`).execute(db);
    },
  };
}

/**
 * An accountant asks for every order in one currency (the list and its CSV file). Read by the
 * newest-first index and filtered, a currency among many costs a scan of the ledger for a page:
 * about 0.8 s on SQLite over a million payments when it has no order, 30 ms when it is one in a
 * thousand. The currency is set at the INSERT and no UPDATE changes it, so a webhook's write
 * never touches this index (PostgreSQL's stays a HOT update).
 */
function currencyIndexes(): OnlineIndex[] {
  return [{ migration: '0020_orders_by_currency', name: 'payform_payments_by_currency', table: 'payform_payments', columns: '(currency, created_at, order_id)' }];
}

const ordersByCurrency = indexesBuiltOnline(currencyIndexes);

/**
 * The sweep of sessions nobody paid (session-sweep.ts) reads them by expiry, from where its last
 * pass stopped; `id` breaks ties, so a pass resumes exactly. Written once, by a session's INSERT.
 */
function sessionExpiryIndexes(): OnlineIndex[] {
  return [{ migration: '0021_session_expiry', name: 'payform_checkout_sessions_expiry', table: 'payform_checkout_sessions', columns: '(expires_at, id)' }];
}

const sessionExpiry = indexesBuiltOnline(sessionExpiryIndexes);

/**
 * The sessions whose end the customer may not extend (WCAG 2.2.1 lets a customer ask for more
 * time; a merchant holding seats or stock for that long says `extendable: false`): a table of its
 * own, as no_card_sessions, so that no session row is rewritten and the upgrade takes no lock on
 * the sessions a running instance writes (an ADD COLUMN waits for every transaction on the table,
 * and holds every payment behind it meanwhile). No foreign key, for the same reason. The sessions
 * still open keep their end: their shop was told it (`expires_at`) and could not ask to keep it,
 * so one holding stock that long would see a customer of the upgraded version outlast it.
 */
const sessionExtension: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('payform_fixed_end_sessions').addColumn('session_id', 'text', (c) => c.primaryKey()).execute();
    await sql`insert into payform_fixed_end_sessions (session_id) select id from payform_checkout_sessions where expires_at > ${Date.now()}`.execute(db);
  },
};

/**
 * An accountant's journal (movements.ts) reads the captures and refunds made in a period by when
 * they were made. Written once, by an operation's INSERT: settling one changes neither column (a
 * partial index of the successful ones would, and cost PostgreSQL its HOT update), and no
 * payment's write touches this table.
 */
function movementIndexes(): OnlineIndex[] {
  return [{ migration: '0023_movement_dates', name: 'payform_operations_made', table: 'payform_operations', columns: '(created_at, id)' }];
}

const movementDates = indexesBuiltOnline(movementIndexes);

/**
 * An operation's currency, its payment's, kept on its row: an operation travels alone (the
 * merchant's hook and notify URL, a capture's or refund's answer), and an amount is never given
 * without the currency it counts. Filled for the operations already there. The table is not
 * the pay path's (no payment or webhook of a payment writes it), so its ADD COLUMN holds up
 * only captures and refunds made during the upgrade.
 */
const operationCurrency: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payform_operations').addColumn('currency', 'text').execute();
    await sql`update payform_operations set currency = (select p.currency from payform_payments p where p.order_id = payform_operations.order_id)`.execute(db);
  },
};

/**
 * PostgreSQL's indexes built outside the migrations' transaction, in order. A later migration
 * that drops or changes one takes it off this list (it would be built again at every start).
 */
export const ONLINE_INDEXES: readonly OnlineIndex[] = [...orderSearchIndexes('postgres'), ...currencyIndexes(), ...sessionExpiryIndexes(), ...movementIndexes()];

/**
 * The sessions of a known customer whose payments link to the customer without keeping the card
 * (opened with `saveCard: false`: no consent to a stored credential). A table of their own, not a
 * column: adding one to the payments or sessions would wait, on PostgreSQL, for every open
 * transaction that writes them, and hold each pay claim behind it meanwhile; creating a table
 * locks nothing the pay path uses. No foreign key for the same reason; its ids are random.
 */
const cardConsent: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('payform_no_card_sessions').addColumn('session_id', 'text', (c) => c.primaryKey()).execute();
  },
};

/**
 * The attempts paid with a saved card, by order id: a table of its own, as no_card_sessions is,
 * so that the upgrade locks nothing the pay path writes.
 */
const savedCardPayments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('payform_saved_card_payments').addColumn('order_id', 'text', (c) => c.primaryKey()).execute();
  },
};

/**
 * The orders whose customer's details were erased (erasure.ts), and when: what comes about them
 * later — a refund's webhook, the gateway's re-send, a subscription's charge — keeps none of those
 * details. A table of its own, as no_card_sessions: no payment row is rewritten, and the upgrade
 * locks nothing the pay path writes but for the trigger's creation, a moment on webhook_events.
 *
 * The trigger takes them out of an erased order's event as it is stored, by whichever writer (an
 * instance of the version before, during a rolling upgrade, too): what erasure.ts's
 * `withoutCustomer` and `withoutCardToken` take from the events they find — a JSON object body's
 * `customer_*` fields but the merchant's customer id; a body that is no JSON object the database
 * can read yet names a `customer_`, whole (ERASED_BODY); the card token of the facts. Plain SQL,
 * no function of this code's. PostgreSQL's runs before the row is written, so what it takes out
 * reaches neither the table nor the WAL; its names are resolved in the ledger's schema whoever
 * inserts. SQLite cannot change a row before its insert: it writes it again after, in the same
 * transaction, before any of it reaches the disk. The SQL is written in `up`, so the test
 * schemas' fingerprint (testing/schema-pool.ts) follows it.
 */
const erasedOrders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('payform_erased_orders').addColumn('order_id', 'text', (c) => c.primaryKey()).addColumn('erased_at', 'bigint', (c) => c.notNull()).execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`create trigger payform_erased_order_events after insert on payform_webhook_events
        when exists (select 1 from payform_erased_orders where order_id = new.order_id)
        begin
          update payform_webhook_events set
            body = case
              when json_valid(new.body) and json_type(new.body) = 'object' then (
                select json_group_object(key, case when type in ('object', 'array') then json(value) when type = 'true' then json('true') when type = 'false' then json('false') else value end)
                from json_each(new.body) where not (substr(key, 1, 9) = 'customer_' and key <> 'customer_id'))
              when instr(new.body, 'customer_') > 0 then ${sql.lit(ERASED_BODY)}
              else new.body end,
            facts = json_remove(new.facts, '$.ccToken', '$.ccTokenExpiration')
          where id = new.id;
        end`.execute(db);
      return;
    }
    await sql`create function payform_erased_order_event() returns trigger language plpgsql set search_path from current as $$ ${erasedOrderEvent({ waitsForErasure: false })} $$`.execute(db);
    await briefly(db, 'payform_webhook_events', sql`create trigger payform_erased_order_events before insert on payform_webhook_events for each row execute function payform_erased_order_event()`);
  },
};

/**
 * An erased order stays erased whatever PostgreSQL's writers do side by side, and no writer gives
 * its payment a card token again. On PostgreSQL each statement reads what was committed before
 * it: a webhook stored while the erasure's transaction was open saw no mark (0026's trigger let
 * its customer through), and an UPDATE that waited for the payment's lock wrote the token by what
 * it had read before. The erasure then went over what came meanwhile, locking the payments again
 * — and lost that race when the waiting webhook took the lock after its second look.
 *
 * The event's trigger now takes a shared advisory lock of the order until its transaction ends,
 * then reads the mark: once the erasure has committed its marks, it waits for those locks to be
 * let go (erasure.ts, `eraseLateArrivals`), so every event stored without seeing the mark is
 * committed, and taken apart, by then. Shared locks never wait for one another: webhooks of one
 * order wait for nothing more than before. A card token written to an erased order is dropped by
 * a trigger after the row's update, by a statement of its own that sees the mark however long
 * the update waited for the row; only an update that changes the token runs it, and it locks
 * nothing more (a BEFORE trigger locks every updated row again first). SQLite writes one
 * transaction at a time: its token trigger is for every other writer (a process of the build
 * before on the same file, the sqlite3 shell). Tokens given back before are taken out.
 */
const erasedOrderTokens: Migration = {
  async up(db: Kysely<unknown>) {
    const changed = 'new.cc_token is not null or new.cc_token_expiration is not null';
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`create trigger payform_erased_order_tokens after update of cc_token, cc_token_expiration on payform_payments
        when (${sql.raw(changed)}) and (new.cc_token is not old.cc_token or new.cc_token_expiration is not old.cc_token_expiration)
          and exists (select 1 from payform_erased_orders where order_id = new.order_id)
        begin
          update payform_payments set cc_token = null, cc_token_expiration = null where order_id = new.order_id;
        end`.execute(db);
    } else {
      await sql`create or replace function payform_erased_order_event() returns trigger language plpgsql set search_path from current as $$ ${erasedOrderEvent({ waitsForErasure: true })} $$`.execute(db);
      await sql`create or replace function payform_erased_order_token() returns trigger language plpgsql set search_path from current as $$
        begin
          if exists (select 1 from payform_erased_orders where order_id = new.order_id) then
            update payform_payments set cc_token = null, cc_token_expiration = null where order_id = new.order_id;
          end if;
          return null;
        end $$`.execute(db);
      await briefly(
        db,
        'payform_payments',
        sql`create trigger payform_erased_order_tokens after update of cc_token, cc_token_expiration on payform_payments for each row
          when ((${sql.raw(changed)}) and (new.cc_token is distinct from old.cc_token or new.cc_token_expiration is distinct from old.cc_token_expiration))
          execute function payform_erased_order_token()`,
      );
    }
    await sql`update payform_payments set cc_token = null, cc_token_expiration = null
      where order_id in (select order_id from payform_erased_orders) and (cc_token is not null or cc_token_expiration is not null)`.execute(db);
  },
};

/**
 * The orders the erasure by age (retention.ts) reached undecided — a payment the gateway may
 * still report, an operation under way, a payment held for a person — and passed by: each is
 * looked at again, a few at a time, until it is decided and erased. A table of its own, created
 * empty (its index costs nothing to build), so the upgrade locks nothing the pay path writes. The
 * orders it erases are found by 0001's index of the payments by creation, which no webhook's
 * UPDATE writes: no index is added to the payments.
 */
const retentionWaits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('payform_retention_waits')
      .addColumn('order_id', 'text', (c) => c.primaryKey())
      .addColumn('checked_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('payform_retention_waits_checked').on('payform_retention_waits').columns(['checked_at', 'order_id']).execute();
  },
};

/**
 * PostgreSQL: the body of the function 0026's trigger runs before an event is stored, which takes
 * the customer out of an erased order's event (without `waitsForErasure`, 0026's as released: keep
 * it so). `waitsForErasure` (0027): first holds the order's shared advisory lock to the end of its
 * transaction, which an erasure waits to be let go of once its marks are committed.
 */
function erasedOrderEvent({ waitsForErasure }: { waitsForErasure: boolean }): RawBuilder<unknown> {
  // The order's key, whatever the schema (erasure.ts's `eraseLateArrivals` takes the same).
  const wait = waitsForErasure ? sql`perform pg_advisory_xact_lock_shared(hashtextextended(new.order_id, 0));` : sql``;
  return sql`
      declare
        kept text;
      begin
        ${wait}
        if not exists (select 1 from payform_erased_orders where order_id = new.order_id) then
          return new;
        end if;
        begin
          -- jsonb cannot hold every JSON text (an escaped NUL, a lone surrogate, nesting past its depth): then no object is read.
          kept := case when jsonb_typeof(new.body::jsonb) = 'object' then (
            select coalesce(jsonb_object_agg(key, value), '{}'::jsonb)::text from jsonb_each(new.body::jsonb) where not (starts_with(key, 'customer_') and key <> 'customer_id')
          ) end;
        exception when others then
          kept := null;
        end;
        new.body := coalesce(kept, case when strpos(new.body, 'customer_') > 0 then ${sql.lit(ERASED_BODY)} else new.body end);
        -- The facts are the ledger's own JSON: its token's string emptied in the text, which never fails.
        new.facts := regexp_replace(new.facts, '"(ccToken|ccTokenExpiration)":"(?:[^"\\\\]|\\\\.)*"', '"\\1":null', 'g');
        return new;
      end`;
}

/** How long a lock on a busy table is waited for at each try, and between tries, and in all. */
const LOCK_TRY_MS = 1_000;
const LOCK_TRIES = 30;

/**
 * PostgreSQL: runs `statement`, whose lock on `table` conflicts with every writer of it, waiting
 * for that lock a second at a time. A lock waited for holds every writer that comes after it:
 * waited for as long as one transaction left open (`idle in transaction`) lasts, it would hold
 * the webhooks of every instance still serving for that long, answered 503. Between tries they
 * go on. After LOCK_TRIES the migration fails, naming the sessions that hold the table: nothing
 * of it stays, and the next start tries again.
 */
async function briefly(db: Kysely<unknown>, table: string, statement: RawBuilder<unknown>): Promise<void> {
  const { rows } = await sql<{ was: string }>`select current_setting('lock_timeout') as was`.execute(db);
  for (let tries = 1; ; tries++) {
    await sql`savepoint payform_briefly`.execute(db);
    try {
      await sql`select set_config('lock_timeout', ${String(LOCK_TRY_MS)}, true)`.execute(db);
      await statement.execute(db);
      await sql`release savepoint payform_briefly`.execute(db);
      await sql`select set_config('lock_timeout', ${rows[0]!.was}, true)`.execute(db);
      return;
    } catch (error) {
      // 55P03: lock_not_available, its lock_timeout; 40P01: a deadlock PostgreSQL broke with a writer
      // that waits for a lock an earlier migration of this upgrade took.
      const code = (error as { code?: unknown }).code;
      if (code !== '55P03' && code !== '40P01') throw error;
      await sql`rollback to savepoint payform_briefly`.execute(db);
      if (tries === LOCK_TRIES) throw new Error(`${table} stayed locked through ${LOCK_TRIES} tries a second apart: ${await lockHolders(db, table)}`, { cause: error });
      await sleep(LOCK_TRY_MS);
    }
  }
}

/** Who holds `table` locked, for an operator to end or wait for. */
async function lockHolders(db: Kysely<unknown>, table: string): Promise<string> {
  const { rows } = await sql<{ pid: number; state: string | null; seconds: number | null; query: string | null }>`
    select a.pid, a.state, extract(epoch from now() - a.xact_start)::int as seconds, left(a.query, 80) as query
    from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.relation = to_regclass(${table}) and l.granted and l.pid <> pg_backend_pid()
    group by a.pid, a.state, a.xact_start, a.query`.execute(db);
  if (rows.length === 0) return 'its holders have gone since; start again';
  const held = rows.map(({ pid, state, seconds, query }) => `pid ${pid} (${state ?? 'unknown'} for ${seconds ?? '?'} s in its transaction, last: ${query ?? '?'})`).join('; ');
  return `held by ${held}; end a transaction left open (pg_terminate_backend(pid)) or wait for it, then start again`;
}

/**
 * What an erased order's event keeps of a body that names a customer but is no JSON object the
 * database can read (erasure.ts, migration 0026): the fields cannot be told apart, so none stays.
 * Released with 0026, never edited.
 */
export const ERASED_BODY = '{"customer_details":"erased: this body named the customer and could not be read to take them out alone"}';

/** The migration that creates a ledger: run only on a new one. */
export const FIRST_MIGRATION = '0001_initial';

export const migrations: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_operation_checks': operationChecks,
  '0003_event_retries': eventRetries,
  '0004_payment_discrepancies': paymentDiscrepancies,
  '0005_waiting_event_list': waitingEventList,
  '0006_merchant_notices': merchantNotices,
  '0007_idempotency_keys': idempotencyKeys,
  '0008_never_sent': neverSent,
  '0009_lookup_method': lookupMethod,
  '0010_payform_prefix': payformPrefix,
  '0011_charge_cards': chargeCards,
  '0012_idempotency_scopes': idempotencyScopes,
  '0013_operation_request_keys': operationRequestKeys,
  '0014_held_payments': heldPayments,
  '0015_reviewed_events': reviewedEvents,
  '0016_ledger_settings': ledgerSettings,
  '0017_operation_transactions': operationTransactions,
  '0018_order_search': orderSearch,
  '0019_card_consent': cardConsent,
  '0020_orders_by_currency': ordersByCurrency,
  '0021_session_expiry': sessionExpiry,
  '0022_session_extension': sessionExtension,
  '0023_movement_dates': movementDates,
  '0024_operation_currency': operationCurrency,
  '0025_saved_card_payments': savedCardPayments,
  '0026_erased_orders': erasedOrders,
  '0027_erased_order_tokens': erasedOrderTokens,
  '0028_retention_waits': retentionWaits,
};
