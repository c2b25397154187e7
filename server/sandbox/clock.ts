/**
 * The sandbox's sense of time. Everything that happens "later" in the simulated gateway — the
 * slow card's success, a hosted payment's order_timeout, an abandoned 3-D Secure challenge,
 * webhook retries — is a task on this clock, so a test can make it happen now by advancing the
 * clock (POST /_sandbox/clock) instead of waiting.
 */

export interface ClockOptions {
  readonly start?: Date | undefined;
  /** A frozen clock moves only when advanced. */
  readonly frozen: boolean;
}

export class SandboxClock {
  readonly frozen: boolean;
  readonly #start: Date | undefined;
  /** How far the clock has been advanced. */
  #offsetMs = 0;
  /** Real time of the last reset, and the sandbox time it stood for. */
  #resetAtMs = 0;
  #startMs = 0;

  constructor(options: ClockOptions) {
    this.frozen = options.frozen;
    this.#start = options.start;
    this.reset();
  }

  nowMs(): number {
    const elapsed = this.frozen ? 0 : Date.now() - this.#resetAtMs;
    return this.#startMs + elapsed + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Moves the clock forward; it never goes back, so nothing scheduled runs twice. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.#offsetMs += ms;
  }

  reset(): void {
    this.#offsetMs = 0;
    this.#resetAtMs = Date.now();
    this.#startMs = this.#start?.getTime() ?? this.#resetAtMs;
  }
}

interface Task {
  readonly dueMs: number;
  readonly sequence: number;
  readonly run: () => unknown;
  cancelled: boolean;
}

export interface Scheduled {
  cancel(): void;
}

/** Runs tasks once the clock reaches them: on a real timer, and whenever the clock is moved. */
export class Scheduler {
  readonly #clock: SandboxClock;
  readonly #onError: (error: unknown) => void;
  #tasks: Task[] = [];
  #sequence = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(clock: SandboxClock, onError: (error: unknown) => void) {
    this.#clock = clock;
    this.#onError = onError;
  }

  after(delayMs: number, run: () => unknown): Scheduled {
    return this.at(this.#clock.nowMs() + Math.max(0, delayMs), run);
  }

  at(dueMs: number, run: () => unknown): Scheduled {
    const task: Task = { dueMs, sequence: (this.#sequence += 1), run, cancelled: false };
    if (!this.#stopped) {
      this.#tasks.push(task);
      this.#arm();
    }
    return { cancel: () => void (task.cancelled = true) };
  }

  /** Runs every task that is due, earliest first, including tasks that those tasks schedule. */
  runDue(): void {
    for (;;) {
      const now = this.#clock.nowMs();
      const due = this.#tasks.filter((task) => task.dueMs <= now && !task.cancelled);
      this.#tasks = this.#tasks.filter((task) => task.dueMs > now && !task.cancelled);
      if (due.length === 0) break;
      due.sort((a, b) => a.dueMs - b.dueMs || a.sequence - b.sequence);
      for (const task of due) {
        try {
          const result = task.run();
          if (result instanceof Promise) result.catch(this.#onError);
        } catch (error) {
          this.#onError(error);
        }
      }
    }
    this.#arm();
  }

  /** Forgets every task (reset). */
  clear(): void {
    this.#tasks = [];
    this.#arm();
  }

  /** Forgets every task and accepts no more: the sandbox is shutting down. */
  stop(): void {
    this.#stopped = true;
    this.clear();
  }

  // One real timer for the earliest task. A frozen clock only fires tasks that are already due.
  #arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const pending = this.#tasks.filter((task) => !task.cancelled);
    if (pending.length === 0) return;
    const earliest = Math.min(...pending.map((task) => task.dueMs));
    const wait = earliest - this.#clock.nowMs();
    if (this.#clock.frozen && wait > 0) return;
    // setTimeout takes at most 2^31-1 ms; a later task is re-armed when that timer fires.
    this.#timer = setTimeout(() => this.runDue(), Math.min(Math.max(wait, 0), 2 ** 31 - 1));
    this.#timer.unref();
  }
}
