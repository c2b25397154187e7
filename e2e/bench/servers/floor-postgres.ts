/**
 * The floor's webhook half on PostgreSQL (floor.ts has it on SQLite): the least a receiver does
 * there. The same checks of a post (readDelivery), then the posts read while the last group was
 * being stored go in as one statement on one connection — one round trip and one commit for the
 * group: its events inserted once each (the signature is the key) and each order's payment moved
 * on, a final status winning and never left. What the route's rate on PostgreSQL could be here.
 */
import type { Server, ServerResponse } from 'node:http';
import pg from 'pg';
import { FINAL, FLOOR_SCHEMA, floorServer, readDelivery, sendJson } from './floor.js';
import type { FloorDelivery } from './floor.js';

/**
 * The group's events, stored once; then one upsert a payment (a statement may not move one row
 * twice), to the group's final status for it when it has one; the new events' signatures back.
 */
const STORE_GROUP = `
  with incoming as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[]) with ordinality as t(signature, order_id, status, data, position)
  ), stored as (
    insert into events (signature, order_id, status, data)
    select signature, order_id, status, data from incoming order by position
    on conflict do nothing
    returning signature, order_id, status
  ), moved as (
    insert into payments (order_id, session_id, status)
    select distinct on (order_id) order_id, '', status from stored order by order_id, status in ${FINAL} desc
    on conflict (order_id) do update set status = excluded.status where payments.status not in ${FINAL}
  )
  select signature from stored`;

export interface PostgresFloor {
  readonly server: Server;
  close(): Promise<void>;
}

/** Takes webhooks at `POST /webhooks/gateway` into `schema` (made if missing) of `databaseUrl`. */
export async function postgresWebhookFloor(databaseUrl: string, schema: string, apiSecret: string): Promise<PostgresFloor> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const quoted = client.escapeIdentifier(schema);
  await client.query(`create schema if not exists ${quoted}`);
  await client.query(`set search_path to ${quoted}`);
  for (const statement of FLOOR_SCHEMA) await client.query(statement);

  let waiting: Array<FloorDelivery & { readonly outgoing: ServerResponse }> = [];
  let storing = false;
  let scheduled = false;

  const storeWaiting = async () => {
    const group = waiting;
    waiting = [];
    storing = true;
    try {
      const { rows } = await client.query<{ signature: string }>({
        name: 'floor-store-group',
        text: STORE_GROUP,
        values: [group.map((d) => d.signature), group.map((d) => d.event.order_id), group.map((d) => d.event.status), group.map((d) => d.data)],
      });
      // A post sent twice within one group is new once.
      const fresh = new Set(rows.map((row) => row.signature));
      for (const { signature, outgoing } of group) sendJson(outgoing, 200, fresh.delete(signature) ? '{"duplicate":false}' : '{"duplicate":true}');
    } catch (error) {
      console.error(`the floor could not store ${group.length} webhook(s): ${(error as Error).message}`);
      // Not stored: the gateway sends each again, as it would any delivery not answered 200.
      for (const { outgoing } of group) sendJson(outgoing, 503, '{"error":"not stored"}');
    } finally {
      storing = false;
      storeSoon();
    }
  };
  // After the turn that read the first post of a group, and never while a group is in flight.
  const storeSoon = () => {
    if (storing || scheduled || waiting.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void storeWaiting();
    });
  };

  const server = floorServer((incoming, body, outgoing) => {
    if (incoming.url !== '/webhooks/gateway') return void sendJson(outgoing, 404, '{"error":"webhooks only"}');
    const delivery = readDelivery(body, apiSecret, outgoing);
    if (!delivery) return;
    waiting.push({ ...delivery, outgoing });
    storeSoon();
  });
  return { server, close: () => client.end() };
}
