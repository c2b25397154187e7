/**
 * A client that closed its connection before its request body had arrived — a tab closed, a
 * phone gone out of range — aborted its own request: reading the body fails, but nothing went
 * wrong in the companion, and nobody is left to read an answer. Not a 500, not an error line.
 */
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';
import { ApiProblem } from './problem.js';

/** True once the client has gone with its request body unfinished (over HTTP only). */
export function abortedByClient(c: Context<CompanionEnv>): boolean {
  const incoming = c.env?.incoming;
  return incoming !== undefined && incoming.destroyed && !incoming.complete;
}

export function abortedProblem(): ApiProblem {
  return new ApiProblem(400, 'request_aborted', 'The request body did not arrive whole');
}
