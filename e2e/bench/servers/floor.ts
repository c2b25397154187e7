/**
 * The floor: the least a relay of card payments does per pay request, in Node on this machine —
 * HTTP in, the attempt claimed in SQLite and synced to the disk before the gateway is called,
 * the gateway called with undici, its answer recorded unsynced, HTTP out. No validation, no
 * logging, no masking, no rate limits, no headers. The pay-path bench measures it beside the
 * companion under the same load: the companion's CPU over the floor's holds still where the
 * machine's own speed drifts from one run to the next.
 */
import { randomUUID } from 'node:crypto';
import { fdatasyncSync, openSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';

export function floorRelay(gatewayUrl: string, databasePath: string): Server {
  const database = new Database(databasePath);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec('create table if not exists payments (order_id text primary key, session_id text not null, status text not null, answer text)');
  const begin = database.prepare('begin immediate');
  const commit = database.prepare('commit');
  const claim = database.prepare("insert into payments (order_id, session_id, status) values (?, ?, 'init')");
  const record = database.prepare('update payments set status = ?, answer = ? where order_id = ? returning status');
  const wal = openSync(`${databasePath}-wal`, 'r+');
  const dispatcher = new Agent({ keepAliveTimeout: 60_000 });

  async function pay(sessionId: string, text: string): Promise<string> {
    const body = JSON.parse(text) as Record<string, unknown>;
    const orderId = randomUUID().replaceAll('-', '').slice(0, 20);
    begin.run();
    claim.run(orderId, sessionId);
    commit.run();
    fdatasyncSync(wal);
    const answer = await request(`${gatewayUrl}/api/v1/payment`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, order_id: orderId, amount: '10.10', currency: 'UAH' }),
    });
    const answered = await answer.body.text();
    const { status } = record.get((JSON.parse(answered) as { status: string }).status, answered, orderId) as { status: string };
    return JSON.stringify({ status, order_id: orderId });
  }

  return createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const sessionId = incoming.url?.split('/')[4] ?? '';
      // A body it cannot read is answered 502 like a failed call: the floor never stops mid-run,
      // and never echoes the error (JSON.parse quotes the body, and the body holds a card).
      pay(sessionId, Buffer.concat(chunks).toString('utf8')).then(
        (answer) => outgoing.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) }).end(answer),
        () => outgoing.writeHead(502).end('the floor could not pay'),
      );
    });
  });
}
