/**
 * Faults a test switches on through PUT /_sandbox/faults: latency, error answers, dropped
 * connections on the API, and duplicate / delayed / reordered / lost webhooks. Choices are
 * deterministic: a rate of 1 always applies, 0 never, and rates in between follow a seeded
 * generator, so the same seed gives the same sequence. `scope` narrows the API faults to a
 * method and path prefix, `times` to the next N matching requests, and `phase` says whether the
 * request is handled before the fault strikes (an outcome the caller cannot know). `shapes` is no
 * fault but the live gateway's other wire forms (shapes.ts), switched on the same way.
 */
import * as z from 'zod';
import { ShapesSetting, ShapeVariation } from './shapes.js';
import type { WebhookFaults } from './webhook-sender.js';

const Rate = z.number().min(0).max(1);

const FaultSettingsShape = z.strictObject({
  latency_ms: z.number().int().min(0).max(60_000).default(0),
  error_rate: Rate.default(0),
  error_status: z.number().int().min(400).max(599).default(500),
  /** true or 1: every matching request's connection is dropped; a fraction: that share of them. */
  drop_connection: z.union([z.boolean(), Rate]).default(false),
  /** Extra copies of each webhook; true means one. */
  webhook_duplicates: z.union([z.boolean(), z.number().int().min(0).max(10)]).default(0),
  webhook_delay_ms: z.number().int().min(0).max(24 * 3600_000).default(0),
  webhook_reorder: z.boolean().default(false),
  /** true or 1: every status-change webhook is lost (never posted); a fraction: that share of them. */
  webhook_drop: z.union([z.boolean(), Rate]).default(false),
  scope: z
    .strictObject({
      method: z.enum(['GET', 'POST']).optional(),
      /** A path prefix such as `/api/v1/capture`. */
      path: z.string().startsWith('/', { error: 'must start with /' }).optional(),
    })
    .optional(),
  /** Apply the API faults to this many matching requests, then clear them. */
  times: z.number().int().positive().optional(),
  /** `before`: the request is not handled. `after`: it is handled, then its answer is lost. */
  phase: z.enum(['before', 'after']).default('before'),
  seed: z.number().int().optional(),
  /** `varied`, or a list of variants: answers and webhooks in the live gateway's other forms (shapes.ts). */
  shapes: ShapesSetting.optional(),
});
export const FaultSettings = FaultSettingsShape.superRefine(narrowsSomething);
export type FaultSettings = z.output<typeof FaultSettings>;

/**
 * `scope`, `times` and `phase: after` act on the API faults only: given without one, a client
 * that meant them for its webhook faults or shapes (which act on everything) is told so.
 */
function narrowsSomething(settings: z.output<typeof FaultSettingsShape>, ctx: z.RefinementCtx): void {
  const { latency_ms, error_rate, drop_connection } = settings;
  if (latency_ms > 0 || error_rate > 0 || (drop_connection !== false && drop_connection !== 0)) return;
  const narrowing = [
    ...(settings.scope ? ['scope'] : []),
    ...(settings.times !== undefined ? ['times'] : []),
    ...(settings.phase === 'after' ? ['phase'] : []),
  ];
  for (const field of narrowing) {
    ctx.addIssue({ code: 'custom', path: [field], message: 'acts on the API faults (latency_ms, error_rate, drop_connection), and none is set; webhook faults and shapes act on every request' });
  }
}

export const NO_FAULTS: FaultSettings = FaultSettings.parse({});

/** What the fault injector decided for one API request. */
export interface FaultDecision {
  readonly latencyMs: number;
  readonly phase: 'before' | 'after';
  /** Answer with this status instead. */
  readonly errorStatus?: number;
  /** Destroy the connection instead of answering. */
  readonly drop: boolean;
}

export class FaultInjector {
  #settings: FaultSettings = NO_FAULTS;
  #remaining: number | undefined;
  #random: () => number;
  /** Which webhooks are lost: a sequence of its own, so that dropping them moves no API fault. */
  #dropRandom: () => number;
  #shapes: ShapeVariation | undefined;
  readonly #defaultSeed: number;

  constructor(seed: number) {
    this.#defaultSeed = seed;
    this.#random = seededRandom(seed);
    this.#dropRandom = seededRandom(seed);
  }

  get settings(): FaultSettings & { readonly remaining?: number } {
    return this.#remaining === undefined ? this.#settings : { ...this.#settings, remaining: this.#remaining };
  }

  /** Replaces every fault (an empty object clears them). */
  set(settings: FaultSettings): void {
    this.#settings = settings;
    this.#remaining = settings.times;
    this.#random = seededRandom(settings.seed ?? this.#defaultSeed);
    this.#dropRandom = seededRandom(settings.seed ?? this.#defaultSeed);
    // A generator of its own: switching shapes on must not move the sequence the error rates follow.
    this.#shapes = settings.shapes && new ShapeVariation(settings.shapes, seededRandom(settings.seed ?? this.#defaultSeed));
  }

  /** The wire forms asked for; undefined when the sandbox answers in its own. */
  get shapes(): ShapeVariation | undefined {
    return this.#shapes;
  }

  clear(): void {
    this.set(NO_FAULTS);
  }

  get webhooks(): WebhookFaults {
    const duplicates = this.#settings.webhook_duplicates;
    const shapes = this.#shapes;
    const dropRate = rateOf(this.#settings.webhook_drop);
    return {
      duplicates: duplicates === true ? 1 : duplicates === false ? 0 : duplicates,
      delayMs: this.#settings.webhook_delay_ms,
      reorder: this.#settings.webhook_reorder,
      shape: shapes && ((event) => shapes.event(event)),
      drop: dropRate === 0 ? undefined : () => chance(dropRate, this.#dropRandom),
    };
  }

  /** The faults for one API request; undefined when none applies. */
  decide(method: string, path: string): FaultDecision | undefined {
    const settings = this.#settings;
    const { latency_ms: latencyMs, error_rate: errorRate, drop_connection: dropSetting } = settings;
    const dropRate = rateOf(dropSetting);
    if (latencyMs === 0 && errorRate === 0 && dropRate === 0) return undefined;
    if (!this.#inScope(method, path)) return undefined;
    if (this.#remaining !== undefined) {
      this.#remaining -= 1;
      if (this.#remaining <= 0) this.#settings = { ...NO_FAULTS, ...lastingPart(settings) };
    }
    const drop = this.#chance(dropRate);
    const error = !drop && this.#chance(errorRate);
    return { latencyMs, phase: settings.phase, drop, ...(error ? { errorStatus: settings.error_status } : {}) };
  }

  #inScope(method: string, path: string): boolean {
    const scope = this.#settings.scope;
    if (scope?.method && scope.method !== method) return false;
    return !scope?.path || path.startsWith(scope.path);
  }

  #chance(rate: number): boolean {
    return chance(rate, this.#random);
  }
}

/** A fault given as true, false or a rate between 0 and 1, as a rate. */
function rateOf(setting: boolean | number): number {
  return setting === true ? 1 : setting === false ? 0 : setting;
}

/** Rates of 0 and 1 are exact; those in between follow the seeded sequence. */
function chance(rate: number, random: () => number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return random() < rate;
}

/** What `times` does not clear: the webhook faults, and the shapes (answers as well as webhooks). */
function lastingPart(settings: FaultSettings): Partial<FaultSettings> {
  const { webhook_duplicates, webhook_delay_ms, webhook_reorder, webhook_drop, shapes } = settings;
  return { webhook_duplicates, webhook_delay_ms, webhook_reorder, webhook_drop, shapes };
}

/** mulberry32: small, fast and good enough to pick which requests fail. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
