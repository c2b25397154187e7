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

  /**
   * The real time (Date.now()) at which this clock reads `sandboxMs`, unchanged while the clock
   * is neither advanced nor reset. A frozen clock reaches only what is due already (0, "now");
   * undefined for a later time.
   */
  realTimeAt(sandboxMs: number): number | undefined {
    if (this.frozen) return sandboxMs <= this.nowMs() ? 0 : undefined;
    return sandboxMs - this.#startMs - this.#offsetMs + this.#resetAtMs;
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
  /** In the queue: not yet run, dropped or cleared. */
  queued: boolean;
}

export interface Scheduled {
  cancel(): void;
}

/** Earlier due time first; of two due at once, the one scheduled first. */
const runsBefore = (a: Task, b: Task) => a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.sequence < b.sequence);

/**
 * Pending tasks as a binary min-heap: scheduling and taking the earliest are O(log n), so
 * hundreds of thousands of pending tasks (webhook retries, payment expiries) cost every request
 * nothing but a look at the top. A cancelled task stays until it surfaces and is dropped, unless
 * cancelled ones come to outnumber the live ones, when the heap is rebuilt without them.
 */
class TaskQueue {
  #heap: Task[] = [];
  #cancelled = 0;

  push(task: Task): void {
    task.queued = true;
    this.#heap.push(task);
    this.#siftUp(this.#heap.length - 1);
  }

  /** The earliest live task, left in place. */
  peek(): Task | undefined {
    while (this.#heap[0]?.cancelled) this.#removeTop();
    return this.#heap[0];
  }

  /** Removes and returns the earliest live task. */
  pop(): Task | undefined {
    const top = this.peek();
    if (top) this.#removeTop();
    return top;
  }

  cancel(task: Task): void {
    const waiting = task.queued && !task.cancelled;
    task.cancelled = true;
    if (!waiting) return;
    this.#cancelled += 1;
    if (this.#cancelled > 1_024 && this.#cancelled * 2 > this.#heap.length) this.#rebuild();
  }

  clear(): void {
    for (const task of this.#heap) task.queued = false;
    this.#heap = [];
    this.#cancelled = 0;
  }

  #removeTop(): void {
    const top = this.#heap[0]!;
    top.queued = false;
    if (top.cancelled) this.#cancelled -= 1;
    const last = this.#heap.pop()!;
    if (this.#heap.length === 0) return;
    this.#heap[0] = last;
    this.#siftDown(0);
  }

  #rebuild(): void {
    for (const task of this.#heap) if (task.cancelled) task.queued = false;
    this.#heap = this.#heap.filter((task) => !task.cancelled);
    this.#cancelled = 0;
    for (let i = (this.#heap.length >> 1) - 1; i >= 0; i -= 1) this.#siftDown(i);
  }

  #siftUp(index: number): void {
    const heap = this.#heap;
    for (let i = index; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!runsBefore(heap[i]!, heap[parent]!)) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  #siftDown(index: number): void {
    const heap = this.#heap;
    for (let i = index; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < heap.length && runsBefore(heap[left]!, heap[first]!)) first = left;
      if (right < heap.length && runsBefore(heap[right]!, heap[first]!)) first = right;
      if (first === i) return;
      [heap[i], heap[first]] = [heap[first]!, heap[i]!];
      i = first;
    }
  }
}

/** Runs tasks once the clock reaches them: on a real timer, and whenever the clock is moved. */
export class Scheduler {
  readonly #clock: SandboxClock;
  readonly #onError: (error: unknown) => void;
  readonly #tasks = new TaskQueue();
  #sequence = 0;
  /** Cancels the armed wake-up (a timer, or an immediate for a task due now). */
  #timer: (() => void) | undefined;
  /** When the armed timer fires, so a task due later does not re-arm it. */
  #timerDueMs = Number.POSITIVE_INFINITY;
  /** The same in real time (SandboxClock.realTimeAt), so an unchanged timer is kept. */
  #timerRealMs: number | undefined;
  #stopped = false;

  /**
   * A task runs in whichever request or timer finds it due, so it takes along what it needs as
   * its closure: the sandbox's tasks capture the `cause` (inspector/request-log.ts, RequestId)
   * of the request that scheduled them, so what they send is traced to that request.
   */
  constructor(clock: SandboxClock, onError: (error: unknown) => void) {
    this.#clock = clock;
    this.#onError = onError;
  }

  after(delayMs: number, run: () => unknown): Scheduled {
    return this.at(this.#clock.nowMs() + Math.max(0, delayMs), run);
  }

  at(dueMs: number, run: () => unknown): Scheduled {
    const task: Task = { dueMs, sequence: (this.#sequence += 1), run, cancelled: false, queued: false };
    if (!this.#stopped) {
      this.#tasks.push(task);
      if (dueMs < this.#timerDueMs) this.#arm();
    }
    return { cancel: () => this.#tasks.cancel(task) };
  }

  /** Runs every task that is due, earliest first, including tasks that those tasks schedule. */
  runDue(): void {
    for (let task = this.#tasks.peek(); task && task.dueMs <= this.#clock.nowMs(); task = this.#tasks.peek()) {
      this.#tasks.pop();
      try {
        const result = task.run();
        if (result instanceof Promise) result.catch(this.#onError);
      } catch (error) {
        this.#onError(error);
      }
    }
    this.#arm();
  }

  /** Forgets every task (reset). */
  clear(): void {
    this.#tasks.clear();
    this.#arm();
  }

  /** Forgets every task and accepts no more: the sandbox is shutting down. */
  stop(): void {
    this.#stopped = true;
    this.clear();
  }

  // One real timer for the earliest task. A frozen clock only fires tasks that are already due.
  #arm(): void {
    const earliest = this.#tasks.peek();
    const realMs = earliest === undefined ? undefined : this.#clock.realTimeAt(earliest.dueMs);
    // Every request runs what is due and arms again: a timer already set for that moment stays
    // (clearing and setting one each time was a timer's work per request for nothing).
    if (this.#timer && realMs !== undefined && realMs === this.#timerRealMs) return;
    this.#timer?.();
    this.#timer = undefined;
    this.#timerDueMs = Number.POSITIVE_INFINITY;
    this.#timerRealMs = undefined;
    if (earliest === undefined || realMs === undefined) return;
    const wake = () => {
      this.#timer = undefined;
      this.runDue();
    };
    const delayMs = realMs - Date.now();
    if (delayMs <= 0) {
      // Due now (a webhook's first attempt): once the I/O under way is done, in this turn of the
      // event loop, rather than on a timer at least a millisecond later — a wake-up of its own.
      const immediate = setImmediate(wake).unref();
      this.#timer = () => clearImmediate(immediate);
    } else {
      // setTimeout takes at most 2^31-1 ms; a later task is re-armed when that timer fires.
      const timer = setTimeout(wake, Math.min(delayMs, 2 ** 31 - 1)).unref();
      this.#timer = () => clearTimeout(timer);
    }
    this.#timerDueMs = earliest.dueMs;
    this.#timerRealMs = realMs;
  }
}
