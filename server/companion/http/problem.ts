/**
 * The companion's error envelope, `{ "error": { "code", "message", "fields"? } }`, and the
 * exception route handlers throw to answer with it. `fields` maps each wrong field, as a dotted
 * path of the request (`card.number`, `split[1].amount`), to the reason; reasons never quote
 * the value that was sent.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { FieldIssue } from '@payform/gateway/wire';

export type FieldReasons = Record<string, string>;

export interface ProblemBody {
  readonly error: { readonly code: string; readonly message: string; readonly fields?: FieldReasons };
}

/**
 * The envelope itself, for answers made outside the app's error handling (a server closing, a
 * request Node could not hand over, a body the host read first): the shape every answer shares.
 */
export function problemBody(code: string, message: string, fields?: FieldReasons): ProblemBody {
  return { error: { code, message, ...(fields ? { fields } : {}) } };
}

export class ApiProblem extends Error {
  override readonly name = 'ApiProblem';

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fields?: FieldReasons,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  get body(): ProblemBody {
    return problemBody(this.code, this.message, this.fields);
  }

  /** 400 naming the wrong fields. */
  static invalid(fields: FieldReasons, message = describeFields(fields)): ApiProblem {
    return new ApiProblem(400, 'invalid_request', message, fields);
  }

  static notFound(what: string, code = 'not_found'): ApiProblem {
    return new ApiProblem(404, code, `${what} was not found`);
  }

  /** 429 with Retry-After in whole seconds (at least 1). */
  static tooMany(message: string, retryAfterMs: number): ApiProblem {
    return new ApiProblem(429, 'rate_limited', message, undefined, { 'Retry-After': String(retryAfterSeconds(retryAfterMs)) });
  }
}

/** A wait as Retry-After says it: whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** `{ field: reason }` from the gateway's `[{ field, reason }]`; the first reason of a field wins. */
export function fieldReasons(issues: readonly FieldIssue[], rename: (field: string) => string = (field) => field): FieldReasons {
  // Without a prototype: a field named `__proto__` (a client's) is a field like any other.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const { field, reason } of issues) {
    const name = rename(field) || 'body';
    fields[name] ??= reason;
  }
  return fields;
}

export function describeFields(fields: FieldReasons): string {
  const parts = Object.entries(fields).map(([field, reason]) => `${field} ${reason}`);
  return parts.length > 0 ? `Invalid request: ${parts.join('; ')}` : 'Invalid request';
}

export function sendProblem(c: Context, problem: ApiProblem): Response {
  return c.json(problem.body, problem.status, problem.headers);
}

/** Ledger and gateway reasons start in lower case; messages start in upper case. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
