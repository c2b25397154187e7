/**
 * The companion's live feed of status changes (`GET /api/changes/stream`, server-sent events),
 * read with fetch because EventSource cannot send the bearer token. A dropped stream is opened
 * again after a pause with `Last-Event-ID`, so no change in between is missed.
 */
import { authorization } from './admin-api.js';
import type { Change } from './admin-api.js';
import { apiPath } from './page-config.js';

export type FeedState = 'connecting' | 'live' | 'reconnecting';

export interface FeedListener {
  change(change: Change): void;
  /**
   * The stream is open again after a drop. What changed meanwhile may not come: another instance
   * behind the balancer, or a restarted one, numbers its changes anew, and `Last-Event-ID` means
   * nothing to it. Read everything again.
   */
  resync(): void;
  state(state: FeedState): void;
  /** The token was refused (401): stop and sign in again. */
  refused(): void;
}

const RETRY_MS = 2_000;

/** Follows the feed until the returned function is called. */
export function followChanges(token: string, listener: FeedListener): () => void {
  const stop = new AbortController();
  let lastId: string | undefined;
  let opened = false;

  const run = async () => {
    listener.state('connecting');
    while (!stop.signal.aborted) {
      try {
        const response = await fetch(apiPath('/api/changes/stream'), {
          headers: { ...authorization(token), Accept: 'text/event-stream', ...(lastId ? { 'Last-Event-ID': lastId } : {}) },
          signal: stop.signal,
        });
        if (response.status === 401) return listener.refused();
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        listener.state('live');
        if (opened) listener.resync();
        opened = true;
        await readEvents(response.body, (event) => {
          if (event.id) lastId = event.id;
          if (event.type === 'change') listener.change(JSON.parse(event.data) as Change);
        });
      } catch {
        if (stop.signal.aborted) return;
      }
      listener.state('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void run();
  return () => stop.abort();
}

interface ServerSentEvent {
  readonly type: string;
  readonly data: string;
  readonly id?: string;
}

/** Parses a text/event-stream body (fields `event`, `data`, `id`; comments skipped) until it ends. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: ServerSentEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let type = 'message';
  let data: string[] = [];
  let id: string | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) onEvent({ type, data: data.join('\n'), ...(id === undefined ? {} : { id }) });
        type = 'message';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = text;
      else if (field === 'data') data.push(text);
      else if (field === 'id') id = text;
    }
  }
}
