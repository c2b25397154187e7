/**
 * The companion's logger: one JSON object per line, every value passed through `redact` first,
 * so a card number or CVV cannot be written even by mistake. Lines go to the logger's sink and,
 * when PAYFORM_LOG_FILE is set, also to that file — the capture `.ci/test` scans after the
 * whole Vitest run (see test/scan-log-capture.ts).
 */
import { appendFileSync } from 'node:fs';
import { redact } from './redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Readonly<Record<string, unknown>>;
/** Receives each finished line (JSON, without the newline) and its level. */
export type LogSink = (line: string, level: LogLevel) => void;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `bindings` to every line. */
  child(bindings: LogFields): Logger;
}

export interface LoggerOptions {
  /** Default: standard error. */
  readonly sink?: LogSink;
  /** Lines below it are dropped; default `info`. */
  readonly level?: LogLevel;
  readonly bindings?: LogFields;
  /** Default: the real time. */
  readonly clock?: () => number;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Standard error, a turn of the event loop's lines in one write. A write(2) costs about as much
 * as making the line (5 µs on a small VM) and a payment logs six, so the lines of the requests
 * answered in one turn go together. Warnings and errors are not kept waiting: they go at once,
 * with what came before them, and whatever is pending goes when the process exits (a SIGKILL
 * can only lose the info lines of the turn it cuts short).
 */
export const stderrSink: LogSink = batchedByTurn((text) => toStderr(text));

/** Whether standard error failed a write (undefined: not watched yet). */
let stderrLost: boolean | undefined;

/**
 * A log whose reader went away (EPIPE: the supervisor's pipe, a `| tee` stopped) fails the next
 * write, and an unhandled stream error ends the process at once, mid-payment, with nothing said:
 * the lines are dropped from then on, and the companion goes on serving: a payment matters more
 * than its log line.
 */
function toStderr(text: string): void {
  if (stderrLost === undefined) {
    stderrLost = false;
    process.stderr.on('error', (error: NodeJS.ErrnoException) => {
      stderrLost = true;
      // Said where it still may be read (console ignores a closed standard output in turn).
      console.log(`payform companion: its log, standard error, failed (${error.code ?? error.message}): log lines are dropped from now on; restart it with its standard error read`);
    });
  }
  if (!stderrLost) process.stderr.write(text);
}

/** A turn that logs a flood writes it in pieces of about this size. */
const FLUSH_AT_CHARACTERS = 64 * 1024;

/** A sink that hands `write` the lines of each turn together (stderrSink's batching, for any writer). */
export function batchedByTurn(write: (text: string) => void): LogSink {
  let pending = '';
  let scheduled = false;
  let exitHooked = false;
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return (line, level) => {
    pending += `${line}\n`;
    if (RANK[level] >= RANK.warn || pending.length >= FLUSH_AT_CHARACTERS) return flush();
    if (!exitHooked) {
      exitHooked = true;
      // process.exit() and an uncaught exception end the process before the turn does.
      process.once('exit', flush);
    }
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        flush();
      });
    }
  };
}

/** Keeps the lines in memory, for tests that look at what was logged. */
export function memorySink(): { readonly sink: LogSink; readonly lines: string[] } {
  const lines: string[] = [];
  return { sink: (line) => void lines.push(line), lines };
}

// Synchronous appends: a line is on disk before the next statement, even if the process dies.
const captureFile = process.env.PAYFORM_LOG_FILE?.trim();
const capture: ((line: string) => void) | undefined = captureFile ? (line) => appendCapture(captureFile, `${line}\n`) : undefined;
/** The capture file took an append: tried as the first logger is made, so a wrong path fails the start, not a request's log line. */
let captureChecked = false;

function appendCapture(file: string, text: string): void {
  try {
    appendFileSync(file, text);
  } catch (error) {
    // Else the first line logged fails the start with a bare ENOENT that names no setting.
    throw new Error(`PAYFORM_LOG_FILE is ${file}, which cannot be written (${error instanceof Error ? error.message : String(error)}): set it to a writable file, or unset it`, { cause: error });
  }
}

const HEAD_KEYS = ['time', 'level', 'msg'];

/**
 * What JSON does not escape and a reader of the log does not take as text: DEL and the C1
 * controls (U+007F–U+009F; a header's bytes 0x80–0x9f arrive so), which a terminal showing the
 * log runs as escape sequences (CSI U+009B clears the screen, OSC U+009D sets its title or a
 * link), next line among them; the line and paragraph separators, line breaks to some readers;
 * and the text-direction embeddings, overrides and isolates, with which a value shows the rest of
 * its line reordered (U+202A–U+202E, U+2066–U+2069).
 */
const CONTROL_JSON_KEEPS = /[\u007f-\u009f\u2028-\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS_JSON_KEEPS = new RegExp(CONTROL_JSON_KEEPS.source, 'g');
const escapedControl = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `{"time":…,"level":…,"msg":…,…fields}`, as JSON.stringify of that one object writes it, but
 * without building the object: the fields are written once and joined to the head. A field
 * named like a head key takes the head's place, as it would in the object.
 */
function lineOf(time: string, level: LogLevel, msg: string, fields: Record<string, unknown>): string {
  if (HEAD_KEYS.some((key) => key in fields)) return JSON.stringify({ time, level, msg, ...fields });
  const rest = JSON.stringify(fields);
  return `{"time":"${time}","level":"${level}","msg":${JSON.stringify(msg)}${rest.length > 2 ? `,${rest.slice(1)}` : '}'}`;
}

/**
 * The line's time, written once per millisecond: a request's lines, and those of requests
 * answered together, share it.
 */
function isoTime(): (now: number) => string {
  let last = Number.NaN;
  let written = '';
  return (now) => (now === last ? written : ((last = now), (written = new Date(now).toISOString())));
}

/**
 * Messages are mostly the same few literals: each is masked once, not once per line. Only a
 * message masking left as it was is kept — one that held a card number is not kept past its line.
 */
const MESSAGES_KEPT = 512;

function maskedMessages(): (message: string) => string {
  const clean = new Set<string>();
  return (message) => {
    if (clean.has(message)) return message;
    const line = redact(message) as string;
    if (line === message && clean.size < MESSAGES_KEPT) clean.add(message);
    return line;
  };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const sink = options.sink ?? stderrSink;
  const threshold = RANK[options.level ?? 'info'];
  const clock = options.clock ?? Date.now;
  const bindings = options.bindings ?? {};
  const hasBindings = Object.keys(bindings).length > 0;
  const timeOf = isoTime();
  const maskMessage = maskedMessages();
  if (captureFile && !captureChecked) {
    appendCapture(captureFile, '');
    captureChecked = true;
  }

  const write = (level: LogLevel, message: string, fields: LogFields = {}) => {
    // The test suites' capture takes every level, so its scan covers what any LOG_LEVEL writes.
    const shown = RANK[level] >= threshold;
    if (!shown && !capture) return;
    const entry = redact(hasBindings ? { ...bindings, ...fields } : fields) as Record<string, unknown>;
    const time = timeOf(clock());
    let line: string;
    try {
      line = lineOf(time, level, maskMessage(message), entry);
    } catch {
      line = JSON.stringify({ time, level, msg: maskMessage(message), fields: '[unserialisable]' });
    }
    // JSON leaves these as they are: readers that split lines on them (Python's splitlines, some
    // log viewers) would read a forged line after one, a terminal would run the rest as controls.
    if (CONTROL_JSON_KEEPS.test(line)) line = line.replace(CONTROLS_JSON_KEEPS, escapedControl);
    if (shown) sink(line, level);
    capture?.(line);
  };

  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (more) => createLogger({ ...options, sink, bindings: { ...bindings, ...more } }),
  };
}
