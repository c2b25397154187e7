/**
 * The back office's live feed of status changes (bearer ADMIN_TOKEN), two ways:
 *
 *   GET /api/changes?after=<seq>&limit=   cheap polling: the changes since the last one seen;
 *                                         `last_seq` is what to send as `after` next
 *   GET /api/changes/stream               server-sent events; `Last-Event-ID` resumes after a drop
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import * as z from 'zod';
import type { CompanionEnv } from '../context.js';
import type { Change } from '../payments/change-feed.js';
import { ApiProblem } from '../http/problem.js';
import { validate } from '../http/validate.js';
import { queryInteger } from './query-integer.js';

const SEQ = /^\d{1,15}$/;

export const ChangesQuery = z.strictObject({
  after: queryInteger('must be a sequence number', 0, 999_999_999_999_999).optional(),
  limit: queryInteger('must be a whole number of changes', 1, 1000).optional(),
});

// Under the shortest idle timeout a host gives a quiet stream by default: Bun.serve's 10 s (a
// proxy's is 60 s or more). At 15 s, Bun cut the back office's feed again and again.
const HEARTBEAT_MS = 8_000;

const LAST_EVENT_ID_REASON = 'must be the seq of the last change received (1 to 15 digits)';

/** The stream's resume point; one that is not a seq is refused, not read as "from now". */
export const LastEventId = z
  .string()
  .regex(SEQ, { error: LAST_EVENT_ID_REASON })
  .describe('The last seq received: the stream resumes after it (an EventSource sends it by itself on reconnecting); anything else is 400');

export const ChangeView = z.object({
  seq: z.int(),
  kind: z.enum(['payment', 'operation', 'session', 'discrepancy', 'customer']).describe('customer: the order’s customer details were erased (status erased); the others: its payment, an operation, its checkout session, a discrepancy the gateway reported'),
  order_id: z.string(),
  status: z.string(),
  operation: z.object({ id: z.string(), kind: z.string().optional() }).optional(),
  source: z.string(),
  at: z.iso.datetime(),
});
export type ChangeView = z.output<typeof ChangeView>;

export const ChangesPage = z.object({
  changes: z.array(ChangeView),
  last_seq: z.int().describe('What to send as `after` next: the last change listed when `limit` cut the page, the newest seq otherwise (before the first change, the feed’s start: its numbers start afresh, from a point of its start time, each time the companion starts)'),
  complete: z
    .boolean()
    .describe(
      'True when `changes` are every change after `after` up to `last_seq` and none is left after it. False when `limit` cut the page (ask again with after=last_seq), ' +
        'or when changes after `after` fell out of the ring, kept for the last 1,000 (the first change listed is then past after + 1), or when `after` is not this feed’s (from before the companion restarted, or another instance’s): read the orders again',
    ),
});

export function changeView(change: Change): ChangeView {
  return {
    seq: change.seq,
    kind: change.kind,
    order_id: change.orderId,
    status: change.status,
    ...(change.operationId ? { operation: { id: change.operationId, kind: change.operationKind } } : {}),
    source: change.source,
    at: new Date(change.at).toISOString(),
  };
}

export function feedRoutes(): Hono<CompanionEnv> {
  const feed = new Hono<CompanionEnv>();

  feed.get('/', validate('query', ChangesQuery), (c) => {
    const query = c.req.valid('query');
    const { feed: changeFeed } = c.var.services;
    // No `after`: everything kept, from the feed's start.
    const { changes, lastSeq, complete } = changeFeed.since(query.after ?? changeFeed.start, query.limit);
    return c.json({ changes: changes.map(changeView), last_seq: lastSeq, complete } satisfies z.output<typeof ChangesPage>);
  });

  feed.get('/stream', (c) => {
    const changes = c.var.services.feed;
    const lastEventId = c.req.header('last-event-id');
    if (lastEventId !== undefined && !SEQ.test(lastEventId)) throw ApiProblem.invalid({ 'Last-Event-ID': LAST_EVENT_ID_REASON });
    const resumeAt = lastEventId === undefined ? changes.seq : Number(lastEventId);
    const answer = streamSSE(c, async (stream) => {
      const resumed = changes.since(resumeAt);
      const queue: Change[] = resumed.changes;
      let wake: (() => void) | undefined;
      const unsubscribe = changes.subscribe((change) => {
        queue.push(change);
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      // `complete`: false when the Last-Event-ID is not this feed's (a restart, another instance)
      // or changes after it fell out of the ring: what came meanwhile is not all here.
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ last_seq: changes.seq, complete: resumed.complete }) });
      while (!stream.aborted) {
        for (let change = queue.shift(); change; change = queue.shift()) {
          await stream.writeSSE({ id: String(change.seq), event: 'change', data: JSON.stringify(changeView(change)) });
        }
        // Sleep until a change comes or the heartbeat is due; a comment keeps proxies from closing it.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, HEARTBEAT_MS);
          timer.unref?.();
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (!stream.aborted && queue.length === 0) await stream.write(': heartbeat\n\n');
      }
      unsubscribe();
    });
    // A host's compression (Express's compression(), a transforming proxy) would hold the events
    // in its buffer until it fills: the back office would say "Live" and show nothing new.
    answer.headers.set('Cache-Control', 'no-cache, no-transform');
    return answer;
  });

  return feed;
}
