// Queries built with Kysely once and run many times with new values. Kysely rebuilds and
// recompiles a query on every call; on the webhook path that costs more than SQLite takes to
// run it. The SQL still comes from the query builder, so it stays right for each dialect.
import { CompiledQuery } from 'kysely';
import type { Compilable, Kysely, QueryResult } from 'kysely';

/** Stands where a value will go; the compiled query keeps it as a parameter. */
class Slot {
  constructor(readonly name: string) {}
}

export type SlotOf<Args> = <K extends keyof Args & string>(name: K) => Args[K];

/** Runs on the database or on a transaction of it. */
export type PreparedQuery<Args, Row> = (db: Pick<Kysely<unknown>, 'executeQuery'>, args: Args) => Promise<QueryResult<Row>>;

/** `build` receives `slot(name)`, to use wherever the query takes a value. */
export function prepareQuery<Args extends object, Row>(build: (slot: SlotOf<Args>) => Compilable<Row>): PreparedQuery<Args, Row> {
  const { sql, parameters } = build((name) => new Slot(name) as never).compile();
  for (const parameter of parameters) {
    if (!(parameter instanceof Slot)) throw new Error(`prepared query takes every value through a slot: ${sql}`);
  }
  const names = (parameters as Slot[]).map((slot) => slot.name as keyof Args);
  return (db, args) => db.executeQuery<Row>(CompiledQuery.raw(sql, names.map((name) => args[name] ?? null)));
}

/** `make` once per database (its ledger context), e.g. the statements a module prepares. */
export function oncePerLedger<Ctx extends object, T>(make: (ctx: Ctx) => T): (ctx: Ctx) => T {
  const made = new WeakMap<Ctx, T>();
  return (ctx) => {
    let value = made.get(ctx);
    if (value === undefined) {
      value = make(ctx);
      made.set(ctx, value);
    }
    return value;
  };
}
