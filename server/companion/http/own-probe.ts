/**
 * The companion's own requests to itself at start (operator/public-url-check.ts: a GET of its
 * webhook route, answered 405, and an empty form posted to it, answered 400) carry this header, so that the request log
 * says it at debug rather than as a refused webhook at every start. The token is this process's
 * own, never answered back: no one else can quiet a line with it.
 */
import { randomUUID } from 'node:crypto';

export const OWN_PROBE_HEADER = 'payform-own-probe';
export const ownProbeToken = randomUUID();
