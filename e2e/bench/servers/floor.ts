/**
 * The floor: the least a relay of card payments does, in Node on this machine, with none of
 * payform's validation, logging, masking, rate limits or headers. The benches measure it beside
 * the companion under the same load: the companion's CPU over the floor's holds still where the
 * machine's own speed drifts from one run to the next, and the floor says what this VM allows
 * at all.
 * - A pay request: HTTP in, the attempt claimed in SQLite and synced to the disk before the
 *   gateway is called, the gateway called with undici, its answer recorded unsynced, HTTP out.
 * - A webhook: the form read, its signature checked, its data decoded, the event stored once
 *   (its signature, a hash of the data, is its key) and its payment's status moved on; the
 *   events read in one turn of the event loop share one synced commit before each is answered.
 */
import { hash, randomUUID, timingSafeEqual } from 'node:crypto';
import { fdatasyncSync, openSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';

export const FLOOR_SCHEMA = [
  'create table if not exists payments (order_id text primary key, session_id text not null, status text not null, answer text)',
  'create table if not exists events (signature text primary key, order_id text not null, status text not null, data text not null)',
];

export function floorRelay(gatewayUrl: string, databasePath: string, apiSecret: string): Server {
  const database = new Database(databasePath);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  for (const statement of FLOOR_SCHEMA) database.exec(statement);
  const begin = database.prepare('begin immediate');
  const commit = database.prepare('commit');
  const wal = openSync(`${databasePath}-wal`, 'r+');
  const sync = () => fdatasyncSync(wal);
  const pay = payFloor(database, gatewayUrl, { begin, commit, sync });
  const webhook = webhookFloor(database, apiSecret, { begin, commit, sync });

  return createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (incoming.url === '/webhooks/gateway') webhook(body, outgoing);
      // A body it cannot read is answered 502 like a failed call: the floor never stops mid-run,
      // and never echoes the error (JSON.parse quotes the body, and the body holds a card).
      else pay(incoming, body).then((answer) => sendJson(outgoing, 200, answer), () => outgoing.writeHead(502).end('the floor could not pay'));
    });
  });
}

interface Commits {
  readonly begin: Database.Statement;
  readonly commit: Database.Statement;
  readonly sync: () => void;
}

function sendJson(outgoing: ServerResponse, status: number, text: string): void {
  outgoing.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

function payFloor(database: Database.Database, gatewayUrl: string, { begin, commit, sync }: Commits) {
  const claim = database.prepare("insert into payments (order_id, session_id, status) values (?, ?, 'init')");
  const record = database.prepare('update payments set status = ?, answer = ? where order_id = ? returning status');
  const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
  return async (incoming: IncomingMessage, text: string): Promise<string> => {
    const sessionId = incoming.url?.split('/')[4] ?? '';
    const body = JSON.parse(text) as Record<string, unknown>;
    const orderId = randomUUID().replaceAll('-', '').slice(0, 20);
    begin.run();
    claim.run(orderId, sessionId);
    commit.run();
    sync();
    const answer = await request(`${gatewayUrl}/api/v1/payment`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, order_id: orderId, amount: '10.10', currency: 'UAH' }),
    });
    const answered = await answer.body.text();
    const { status } = record.get((JSON.parse(answered) as { status: string }).status, answered, orderId) as { status: string };
    return JSON.stringify({ status, order_id: orderId });
  };
}

/** Statuses a payment cannot leave: an event that comes late never moves it back. */
const FINAL = "('success', 'failure')";

function webhookFloor(database: Database.Database, apiSecret: string, { begin, commit, sync }: Commits) {
  const store = database.prepare('insert into events (signature, order_id, status, data) values (?, ?, ?, ?) on conflict do nothing');
  const advance = database.prepare(
    `insert into payments (order_id, session_id, status) values (?, '', ?) on conflict (order_id) do update set status = excluded.status where payments.status not in ${FINAL}`,
  );
  let waiting: Array<{ signature: string; event: { order_id: string; status: string }; data: string; outgoing: ServerResponse }> = [];

  const commitWaiting = () => {
    const group = waiting;
    waiting = [];
    let answers: string[];
    try {
      begin.run();
      answers = group.map(({ signature, event, data }) => {
        const stored = store.run(signature, event.order_id, event.status, data).changes === 1;
        if (stored) advance.run(event.order_id, event.status);
        return stored ? '{"duplicate":false}' : '{"duplicate":true}';
      });
      commit.run();
      sync();
    } catch (error) {
      if (database.inTransaction) database.exec('rollback');
      console.error(`the floor could not store ${group.length} webhook(s): ${(error as Error).message}`);
      // Not stored: the gateway sends each again, as it would any delivery not answered 200.
      return group.forEach(({ outgoing }) => sendJson(outgoing, 503, '{"error":"not stored"}'));
    }
    group.forEach(({ outgoing }, index) => sendJson(outgoing, 200, answers[index]!));
  };

  return (body: string, outgoing: ServerResponse): void => {
    const form = new URLSearchParams(body);
    const data = form.get('data') ?? '';
    const signature = Buffer.from(form.get('signature') ?? '');
    const expected = Buffer.from(hash('sha1', apiSecret + data + apiSecret, 'base64').replaceAll('+', '-').replaceAll('/', '_'));
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return void sendJson(outgoing, 401, '{"error":"signature"}');
    let event: { order_id: string; status: string };
    try {
      event = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as typeof event;
    } catch {
      return void sendJson(outgoing, 400, '{"error":"data"}');
    }
    if (typeof event?.order_id !== 'string' || typeof event.status !== 'string') return void sendJson(outgoing, 400, '{"error":"event"}');
    if (waiting.length === 0) setImmediate(commitWaiting);
    waiting.push({ signature: signature.toString(), event, data, outgoing });
  };
}
