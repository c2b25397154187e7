/**
 * Reading the gateway's success answers: JSON objects checked against the wire schemas and
 * turned into client objects, the hosted create's 303 Location, and receipt documents.
 */
import type * as z from 'zod';
import { UnexpectedResponseError } from './errors.js';
import { addressOf, parseJson } from './transport.js';
import type { GatewayCall, GatewayReply, Transport } from './transport.js';
import { describeIssues, parseAnswer } from './wire/issues.js';

/** A JSON answer, validated by `schema`, converted by `convert` (amounts to minor units). */
export function readJson<S extends z.ZodType, T>(reply: GatewayReply, schema: S, convert: (data: z.output<S>) => T): T {
  if (reply.status < 200 || reply.status > 299) {
    throw new UnexpectedResponseError(`Expected a JSON answer, got HTTP ${reply.status} from ${addressOf(reply.url)}`, { status: reply.status });
  }
  const json = parseJson(reply.body);
  if (json === undefined) throw new UnexpectedResponseError(`The answer from ${addressOf(reply.url)} is not JSON`, { status: reply.status });
  const parsed = parseAnswer(schema, json);
  if (!parsed.success) {
    throw new UnexpectedResponseError(`The answer from ${addressOf(reply.url)} does not have the expected shape: ${describeIssues(parsed.issues)}`, {
      status: reply.status,
      fields: parsed.issues,
    });
  }
  try {
    return convert(parsed.data);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new UnexpectedResponseError(`The answer from ${addressOf(reply.url)} has an unreadable amount: ${error.message}`, { status: reply.status });
  }
}

/** Sends a read (retried by the transport) and reads its JSON answer. */
export async function fetchJson<S extends z.ZodType, T>(
  transport: Transport,
  call: GatewayCall,
  schema: S,
  convert: (data: z.output<S>) => T,
): Promise<T> {
  return readJson(await transport.send(call), schema, convert);
}

/**
 * The absolute address of the hosted create's 303 Location (the checkout page). Another
 * redirect (302, 307) is no page of the gateway's: unreadable, like any answer it never gives.
 */
export function readLocation(reply: GatewayReply): string {
  const location = reply.headers.get('location');
  if (reply.status !== 303 || !location) {
    throw new UnexpectedResponseError(`Expected a 303 redirect to the checkout page, got HTTP ${reply.status} from ${addressOf(reply.url)}`, {
      status: reply.status,
    });
  }
  return new URL(location, reply.url).toString();
}

/** A document the gateway renders: receipt HTML or PDF, or a ZIP of receipts. */
export interface GatewayDocument {
  /** The answer's Content-Type, or the one its format implies when the gateway sent none. */
  readonly contentType: string;
  readonly body: Uint8Array;
}

export function readDocument(reply: GatewayReply, impliedType: string): GatewayDocument {
  if (reply.status !== 200) {
    throw new UnexpectedResponseError(`Expected a document, got HTTP ${reply.status} from ${addressOf(reply.url)}`, { status: reply.status });
  }
  return { contentType: reply.headers.get('content-type') || impliedType, body: reply.body };
}
