// Many payments written straight into a migrated SQLite ledger file, in two statements: for tests
// and measurements of reads over a large ledger, which paying through the API would take minutes
// to fill.
import Database from 'better-sqlite3';

/** SQL expressions of `n` (1, 2, …) for the columns a search reads; the rest are a plain purchase. */
export interface SeededColumns {
  readonly createdAt?: string;
  readonly ccMask?: string;
  readonly status?: string;
  readonly method?: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly email?: string;
  readonly mismatchReport?: string;
  /** The merchant's customer id; null for none. */
  readonly customerId?: string;
}

/** Writes payments `seed-<n>` for n in 1…count, each with a checkout session of its own. */
export function seedPayments(file: string, count: number, columns: SeededColumns = {}): void {
  const {
    createdAt = 'n', ccMask = `'424242******4242'`, status = `'success'`, method = `'purchase'`, amount = '1000', currency = `'UAH'`, email = `'buyer@example.com'`, mismatchReport = 'null', customerId = 'null',
  } = columns;
  const customer = `case when (${email}) is null then '{}' else json_object('email', ${email}) end`;
  const numbers = `with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${count})`;
  const database = new Database(file);
  try {
    database.transaction(() => {
      database.exec(`${numbers}
        insert into payform_checkout_sessions (id, order_id, amount, currency, description, method, customer, allowed_modes, created_at, expires_at)
        select 'seed-' || n, 'seed-' || n, ${amount}, ${currency}, 'Tea', ${method}, ${customer}, '["direct"]', ${createdAt}, 99999999999999 from seq`);
      database.exec(`${numbers}
        insert into payform_payments (order_id, session_id, attempt, mode, method, amount, currency, status, cc_mask, customer, customer_id, created_at, updated_at, last_seen_at, mismatch_report)
        select 'seed-' || n, 'seed-' || n, 1, 'direct', ${method}, ${amount}, ${currency}, ${status}, ${ccMask}, ${customer}, ${customerId}, ${createdAt}, ${createdAt}, ${createdAt}, ${mismatchReport} from seq`);
    })();
  } finally {
    database.close();
  }
}
