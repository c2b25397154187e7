/**
 * The floor: the least a relay of card payments does, in Node on this machine, with none of
 * payform's validation, logging, masking, rate limits or headers. The benches measure it beside
 * the companion under the same load: the companion's CPU over the floor's holds still where the
 * machine's own speed drifts from one run to the next, and the floor says what this VM allows
 * at all.
 * - A pay request: HTTP in, the attempt claimed in SQLite and synced to the disk before the
 *   gateway is called, the widget's fields mapped to the gateway's (its `server_url` this relay's
 *   own webhook address) and sent with undici, its answer recorded unsynced, HTTP out. The
 *   request is a real one, so the sandbox pays it and sends its webhook here: the overhead run
 *   measures the floor as it does the companion.
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
import type { AddressInfo } from 'node:net';
import type { ProjectCredentials } from '../../../server/gateway/test-project.js';
import { gatewayAuthHeaders } from './credentials.js';

export const FLOOR_SCHEMA = [
  'create table if not exists payments (order_id text primary key, session_id text not null, status text not null, answer text)',
  'create table if not exists events (signature text primary key, order_id text not null, status text not null, data text not null)',
];

export function floorRelay(gatewayUrl: string, databasePath: string, credentials: ProjectCredentials): Server {
  const database = new Database(databasePath);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  for (const statement of FLOOR_SCHEMA) database.exec(statement);
  const begin = database.prepare('begin immediate');
  const commit = database.prepare('commit');
  const wal = openSync(`${databasePath}-wal`, 'r+');
  const sync = () => fdatasyncSync(wal);
  let ownUrl = '';
  const pay = payFloor(database, { url: gatewayUrl, credentials, ownUrl: () => ownUrl || (ownUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`) }, { begin, commit, sync });
  const webhook = webhookFloor(database, credentials.apiSecret, { begin, commit, sync });

  const server = floorServer((incoming, body, outgoing) => {
    if (incoming.url === '/webhooks/gateway') webhook(body, outgoing);
    // A body it cannot read is answered 502 like a failed call: the floor never stops mid-run,
    // and never echoes the error (JSON.parse quotes the body, and the body holds a card).
    else pay(incoming, body).then((answer) => sendJson(outgoing, 200, answer), () => outgoing.writeHead(502).end('the floor could not pay'));
  });
  return server;
}

/** HTTP in: each request's body read whole, then handed on. */
export function floorServer(handle: (incoming: IncomingMessage, body: string, outgoing: ServerResponse) => void): Server {
  return createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => handle(incoming, Buffer.concat(chunks).toString('utf8'), outgoing));
  });
}

interface Commits {
  readonly begin: Database.Statement;
  readonly commit: Database.Statement;
  readonly sync: () => void;
}

export function sendJson(outgoing: ServerResponse, status: number, text: string): void {
  outgoing.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

interface FloorGateway {
  readonly url: string;
  readonly credentials: ProjectCredentials;
  /** This relay's address, for the gateway's webhooks. */
  readonly ownUrl: () => string;
}

/** What the widget posts (server/companion/checkout/pay-request.ts), taken as given. */
interface WidgetPay {
  readonly card: { readonly number: string; readonly exp_month: number; readonly exp_year: number; readonly cvv: string };
  readonly customer: { readonly fname: string; readonly lname: string; readonly email: string; readonly phone: string };
  readonly fingerprint: Readonly<Record<string, string>>;
}

function payFloor(database: Database.Database, gateway: FloorGateway, { begin, commit, sync }: Commits) {
  const claim = database.prepare("insert into payments (order_id, session_id, status) values (?, ?, 'init')");
  const record = database.prepare('update payments set status = ?, answer = ? where order_id = ? returning status');
  const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
  const headers = { 'content-type': 'application/json', ...gatewayAuthHeaders(gateway.credentials) };
  return async (incoming: IncomingMessage, text: string): Promise<string> => {
    const sessionId = incoming.url?.split('/')[4] ?? '';
    const { card, customer, fingerprint } = JSON.parse(text) as WidgetPay;
    const orderId = randomUUID().replaceAll('-', '').slice(0, 20);
    begin.run();
    claim.run(orderId, sessionId);
    commit.run();
    sync();
    const ip = incoming.socket.remoteAddress ?? '0.0.0.0';
    const answer = await request(`${gateway.url}/api/v1/payment`, {
      method: 'POST',
      dispatcher,
      headers,
      body: JSON.stringify({
        pos_id: gateway.credentials.posId,
        mode: 'direct',
        method: 'purchase',
        amount: 10.1,
        currency: 'UAH',
        description: 'Green tea, 250 g',
        order_id: orderId,
        cc_number: card.number.replaceAll(' ', ''),
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        card_cvv: card.cvv,
        customer_fname: customer.fname,
        customer_lname: customer.lname,
        customer_email: customer.email,
        customer_phone: customer.phone,
        customer_ip: ip,
        browser_fingerprint: { ...fingerprint, browserAcceptHeader: incoming.headers.accept ?? '*/*', browserIpAddress: ip, browserUserAgent: incoming.headers['user-agent'] ?? '' },
        server_url: `${gateway.ownUrl()}/webhooks/gateway`,
        result_url: `${gateway.ownUrl()}/checkout/return/${orderId}`,
        order_3ds_bypass: 'supported',
      }),
    });
    const answered = await answer.body.text();
    const { status } = record.get((JSON.parse(answered) as { status: string }).status, answered, orderId) as { status: string };
    return JSON.stringify({ status, order_id: orderId });
  };
}

/** Statuses a payment cannot leave: an event that comes late never moves it back. */
export const FINAL = "('success', 'failure')";

function webhookFloor(database: Database.Database, apiSecret: string, { begin, commit, sync }: Commits) {
  const store = database.prepare('insert into events (signature, order_id, status, data) values (?, ?, ?, ?) on conflict do nothing');
  const advance = database.prepare(
    `insert into payments (order_id, session_id, status) values (?, '', ?) on conflict (order_id) do update set status = excluded.status where payments.status not in ${FINAL}`,
  );
  let waiting: Array<FloorDelivery & { readonly outgoing: ServerResponse }> = [];

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
    const delivery = readDelivery(body, apiSecret, outgoing);
    if (!delivery) return;
    if (waiting.length === 0) setImmediate(commitWaiting);
    waiting.push({ ...delivery, outgoing });
  };
}

/** A webhook post as the floor keeps it: its signature is its key. */
export interface FloorDelivery {
  readonly signature: string;
  readonly event: { readonly order_id: string; readonly status: string };
  readonly data: string;
}

/**
 * The least a receiver checks of a post: the form read, its signature checked, its data decoded
 * to an event that names an order and a status. Anything else is answered here (401, 400).
 */
export function readDelivery(body: string, apiSecret: string, outgoing: ServerResponse): FloorDelivery | undefined {
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
  return { signature: signature.toString(), event, data };
}
