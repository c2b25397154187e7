/** The Hono environment of the sandbox app: Node's request objects when served over HTTP. */
import type { HttpBindings } from '@hono/node-server';
import type { WrittenAmounts } from '@payform/gateway/wire';
import type { Project } from '../config.js';
import type { WarningNote } from '../inspector/notes.js';
import type { RequestId } from '../inspector/request-log.js';
import type { Leniency } from './leniency.js';

export interface SandboxEnv {
  /**
   * Absent when the app is called in-process (`app.request()`): read as `c.env?.incoming`. Not
   * typed `| undefined`, which Hono's `Env` refuses under `exactOptionalPropertyTypes`, in the
   * published declarations a merchant's strict project checks.
   */
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** The project the request's credentials belong to (API routes). */
    project: Project;
    /**
     * What reading the request ignored, coerced or refused, and the rule behind each (API
     * routes, once the body or query is read; leniency.ts). For a request inspector.
     */
    leniency: Leniency | undefined;
    /**
     * What the handler warns the integrator of (a payment that can never be captured or refunded,
     * a HEAD that sent nothing): notes for the request inspector, beside the leniency's.
     */
    warnings: readonly WarningNote[] | undefined;
    /** The JSON body as readJsonBody parsed it, so the inspector records it without parsing it again. */
    jsonBody: unknown;
    /** How the body's text writes its amounts (too many decimals, an exponent), which its parsed value hides (@payform/gateway's written-amounts.ts). */
    writtenAmounts: WrittenAmounts | undefined;
    /**
     * The inspector's number for this request (inspector/recorder.ts), which handlers pass on as
     * the `cause` of what they change; undefined for a request it does not record (reads).
     */
    requestId: RequestId | undefined;
  };
}
