/**
 * The ledger's tables live under a `payform_` prefix in the database, so they sit beside a
 * shop's own (`payments`, `orders`…) in one database. The code names them without it — the
 * schema's keys are domain names — and `TablePrefixPlugin` adds it to every table a query
 * builds (tables, joins, qualified references, `sql.table()`); raw SQL text that names a table
 * is not rewritten, so it must not name one. Migrations run without the plugin: up to 0009 they
 * made the unprefixed tables, 0010 renames them.
 */
import { OperationNodeTransformer } from 'kysely';
import type {
  KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, SchemableIdentifierNode, UnknownRow,
} from 'kysely';

export const TABLE_PREFIX = 'payform_';

/** Every table of the ledger, as the code names them: each after the tables it references (filled in this order, emptied in reverse). */
export const LEDGER_TABLES = ['checkout_sessions', 'payments', 'operations', 'webhook_events', 'saved_cards', 'idempotency_keys', 'ledger_settings', 'no_card_sessions', 'fixed_end_sessions', 'saved_card_payments', 'erased_orders', 'retention_waits'] as const;

export type LedgerTable = (typeof LEDGER_TABLES)[number];

/** A ledger table's name in the database. */
export const stored = (table: LedgerTable): string => `${TABLE_PREFIX}${table}`;

const NAMES: ReadonlySet<string> = new Set(LEDGER_TABLES);

class PrefixTables extends OperationNodeTransformer {
  protected override transformSchemableIdentifier(node: SchemableIdentifierNode, queryId: Parameters<OperationNodeTransformer['transformNode']>[1]): SchemableIdentifierNode {
    const transformed = super.transformSchemableIdentifier(node, queryId);
    const { name } = transformed.identifier;
    if (!NAMES.has(name)) return transformed;
    return { ...transformed, identifier: { ...transformed.identifier, name: `${TABLE_PREFIX}${name}` } };
  }
}

export class TablePrefixPlugin implements KyselyPlugin {
  readonly #transformer = new PrefixTables();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
