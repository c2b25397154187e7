/**
 * Posting a webhook form to an `http:` target: HTTP/1.1 over keep-alive sockets, the request
 * written in one go and the answer read only as far as the sender needs it — its status, and
 * its framing so that the connection can carry the next post. The body is counted, never kept.
 *
 * Why not node:http: its ClientRequest, agent, IncomingMessage and streams cost the sandbox
 * about a third more CPU a payment than the post itself on the socket (a webhook per payment,
 * every suite and the bench). Other targets (https:, credentials in the URL) and a configured
 * fetch still go through @payform/gateway's exchanges (webhook-sender.ts).
 *
 * The answer is read as RFC 9112 frames it: informational (1xx) answers skipped; no body after
 * 204 or 304; a chunked transfer coding read to its last chunk; else Content-Length; else to
 * the end of the connection. A connection is kept for the next post only when the answer was
 * read whole and neither side asked to close it.
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';

export interface FormPost {
  readonly url: URL;
  /** The form, already encoded. */
  readonly body: string;
  readonly userAgent: string;
  /** The whole exchange, connecting included, fails with a TimeoutError after this long. */
  readonly timeoutMs: number;
  /** An answer with a larger body fails the post. */
  readonly maxAnswerBytes: number;
}

/** Whether the lean poster can take this target (else the caller uses a full HTTP client). */
export function postsDirectly(url: URL): boolean {
  return url.protocol === 'http:' && url.username === '' && url.password === '';
}

/**
 * Idle connections are closed after this long, before a server's own keep-alive timeout (5 s by
 * default in Node) can close one just as a post is written on it.
 */
const IDLE_SOCKET_MS = 4_000;
/** Longest status line and headers read before an answer counts as malformed. */
const MAX_HEAD_BYTES = 64 * 1024;

interface IdleSocket {
  /** Takes the socket out of idleness: its idle listeners and timeout are removed. */
  readonly take: () => Socket;
}

export class FormPoster {
  /** Idle keep-alive connections by host and port, most recently used last. */
  readonly #idle = new Map<string, IdleSocket[]>();

  /** Posts the form and resolves with the answer's status once the answer has been read. */
  post(post: FormPost): Promise<number> {
    const origin = post.url.host;
    const socket = this.#idle.get(origin)?.pop()?.take() ?? this.#connect(post.url);
    const head =
      `POST ${post.url.pathname}${post.url.search} HTTP/1.1\r\nHost: ${origin}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nUser-Agent: ${post.userAgent}\r\n` +
      `Content-Length: ${Buffer.byteLength(post.body)}\r\nConnection: keep-alive\r\n\r\n`;
    return new Promise<number>((resolve, reject) => {
      const answer = new AnswerReader(post.maxAnswerBytes);
      const finish = (error: Error | undefined) => {
        clearTimeout(timer);
        socket.off('data', onData).off('error', onError).off('close', onClose);
        if (error) {
          socket.destroy();
          reject(error);
          return;
        }
        if (answer.reusable) this.#keep(origin, socket);
        else socket.destroy();
        resolve(answer.status);
      };
      const onData = (chunk: Buffer) => {
        let ended: boolean;
        try {
          ended = answer.read(chunk);
        } catch (error) {
          return finish(error as Error);
        }
        if (ended) finish(undefined);
      };
      const onError = (error: Error) => finish(error);
      const onClose = () => finish(answer.endedByClose() ? undefined : connectionClosed());
      const timer = setTimeout(() => finish(new DOMException(`No answer within ${post.timeoutMs} ms`, 'TimeoutError')), post.timeoutMs);
      timer.unref();
      // While a post is under way its connection keeps the process alive, as node:http's do.
      socket.ref();
      socket.on('data', onData).on('error', onError).on('close', onClose);
      socket.write(head + post.body);
    });
  }

  /** Closes every idle connection (the sandbox is stopping). */
  close(): void {
    for (const sockets of this.#idle.values()) for (const idle of sockets) idle.take().destroy();
    this.#idle.clear();
  }

  #connect(url: URL): Socket {
    // An IPv6 literal is bracketed in a URL, bare for connect.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return connect({ host, port: Number(url.port || 80), noDelay: true });
  }

  /** Keeps an answered connection for the next post; left idle, or closed by the server, it goes. */
  #keep(origin: string, socket: Socket): void {
    let sockets = this.#idle.get(origin);
    if (!sockets) this.#idle.set(origin, (sockets = []));
    const forget = () => {
      idle.take().destroy();
      const index = sockets.indexOf(idle);
      if (index !== -1) sockets.splice(index, 1);
    };
    const idle: IdleSocket = {
      take: () => {
        socket.setTimeout(0);
        socket.off('timeout', forget).off('close', forget).off('error', forget).off('data', forget);
        return socket;
      },
    };
    socket.unref();
    socket.setTimeout(IDLE_SOCKET_MS);
    // Data while idle is not an answer to anything: the connection is out of step.
    socket.once('timeout', forget).once('close', forget).once('error', forget).once('data', forget);
    sockets.push(idle);
  }
}

function connectionClosed(): Error {
  return Object.assign(new Error('The connection closed before the answer ended'), { code: 'ECONNRESET' });
}

type Framing = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' | 'done';

/** Reads one answer off a connection: its status and how its body is framed, to its end. */
class AnswerReader {
  status = 0;
  /** Whether the connection can carry another request once this answer has ended. */
  reusable = false;
  readonly #maxBytes: number;
  #framing: Framing = 'head';
  /** Unparsed text of the head, a chunk-size line or trailers (latin1: one char a byte). */
  #pending = '';
  /** Body bytes still to come in the current Content-Length body or chunk. */
  #remaining = 0;
  #bodyBytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Takes the next bytes; true once the answer has ended. Throws on a malformed or oversized answer. */
  read(chunk: Buffer): boolean {
    let offset = 0;
    while (offset < chunk.length || this.#framing === 'done') {
      if (this.#framing === 'done') {
        // Bytes after the answer: the connection is not in a state to be reused.
        if (offset < chunk.length) this.reusable = false;
        return true;
      }
      offset = this.#step(chunk, offset);
    }
    return false;
  }

  /** The connection closed: a body read to the end of the connection has ended. */
  endedByClose(): boolean {
    return this.#framing === 'close' || this.#framing === 'done';
  }

  #step(chunk: Buffer, offset: number): number {
    switch (this.#framing) {
      case 'head':
      case 'chunk-size':
      case 'chunk-end':
      case 'trailers':
        return this.#line(chunk, offset);
      case 'length':
      case 'chunk-data': {
        const taken = Math.min(this.#remaining, chunk.length - offset);
        this.#count(taken);
        this.#remaining -= taken;
        if (this.#remaining === 0) this.#framing = this.#framing === 'length' ? 'done' : 'chunk-end';
        return offset + taken;
      }
      default:
        // 'close': everything up to the end of the connection is body.
        this.#count(chunk.length - offset);
        return chunk.length;
    }
  }

  /** Text framing: the head ends at an empty line, the others at a line's end. */
  #line(chunk: Buffer, offset: number): number {
    const text = this.#pending + chunk.toString('latin1', offset);
    const terminator = this.#framing === 'head' || this.#framing === 'trailers' ? '\r\n\r\n' : '\r\n';
    // Trailers may be absent: the empty line then follows the last chunk's size line at once.
    const end = this.#framing === 'trailers' && text.startsWith('\r\n') ? 0 : text.indexOf(terminator);
    if (end === -1) {
      if (text.length > MAX_HEAD_BYTES) throw malformed('its head is too long');
      this.#pending = text;
      return chunk.length;
    }
    const consumed = (this.#framing === 'trailers' && end === 0 ? 2 : end + terminator.length) - this.#pending.length;
    const line = text.slice(0, end);
    this.#pending = '';
    if (this.#framing === 'head') this.#head(line);
    else if (this.#framing === 'chunk-size') this.#chunkSize(line);
    else if (this.#framing === 'chunk-end') {
      if (line !== '') throw malformed('a chunk does not end where its size says');
      this.#framing = 'chunk-size';
    } else this.#framing = 'done';
    return offset + consumed;
  }

  #head(head: string): void {
    const [statusLine = '', ...fields] = head.split('\r\n');
    const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(statusLine);
    if (!status) throw malformed('it is not an HTTP/1.x answer');
    const code = Number(status[2]);
    // An informational answer comes before the real one (101 would switch protocols: not asked for).
    if (code >= 100 && code < 200 && code !== 101) return;
    this.status = code;
    const headers = new Map<string, string>();
    for (const field of fields) {
      const colon = field.indexOf(':');
      if (colon <= 0) throw malformed('a header line has no name');
      const name = field.slice(0, colon).trim().toLowerCase();
      const value = field.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    const connection = (headers.get('connection') ?? '').toLowerCase();
    this.reusable = status[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    const coding = headers.get('transfer-encoding');
    const length = headers.get('content-length');
    if (code === 204 || code === 304) this.#framing = 'done';
    else if (coding !== undefined) {
      this.#framing = /(?:^|,)\s*chunked\s*$/i.test(coding) ? 'chunk-size' : 'close';
    } else if (length !== undefined) {
      // A list of equal lengths is one length (RFC 9110 §8.6); anything else is malformed.
      const lengths = new Set(length.split(',').map((part) => part.trim()));
      const [only] = lengths;
      if (lengths.size !== 1 || !/^\d{1,15}$/.test(only ?? '')) throw malformed('its Content-Length is not a length');
      this.#remaining = Number(only);
      this.#count(0, this.#remaining);
      this.#framing = this.#remaining === 0 ? 'done' : 'length';
    } else this.#framing = 'close';
    if (this.#framing === 'close') this.reusable = false;
  }

  #chunkSize(line: string): void {
    const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
    if (!size) throw malformed('a chunk size is not hexadecimal');
    this.#remaining = parseInt(size[1]!, 16);
    this.#framing = this.#remaining === 0 ? 'trailers' : 'chunk-data';
  }

  #count(bytes: number, declared = 0): void {
    this.#bodyBytes += bytes;
    if (this.#bodyBytes + declared > this.#maxBytes) throw new Error(`The receiver's answer is larger than ${this.#maxBytes} bytes`);
  }
}

function malformed(why: string): Error {
  return Object.assign(new Error(`The receiver's answer is not valid HTTP: ${why}`), { code: 'HPE_INVALID' });
}
