/**
 * The gateway credentials of a bench run, the same for every side of a comparison: the sandbox
 * the bench starts accepts exactly these, the companion calls it and checks webhook signatures
 * with them, and the requests sent straight to the sandbox carry them. They come from
 * GATEWAY_POS_ID, GATEWAY_API_KEY, GATEWAY_API_SECRET and GATEWAY_ENDPOINTS_KEY (the test
 * project's where unset), read as the companion and the sandbox read them; the servers of
 * serve.ts inherit the bench's environment, so they read the same values.
 */
import { testProjectCredentials } from '../../../server/gateway/test-project.js';
import type { ProjectCredentials } from '../../../server/gateway/test-project.js';
import { authHeaderValue } from '../../../server/gateway/wire/routes.js';
import type { SandboxConfig } from '../../../server/sandbox/config.js';

/** The companions' admin token (the merchant API's bearer token) in a bench run. */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

export function benchCredentials(env: Readonly<Record<string, string | undefined>> = process.env): ProjectCredentials {
  return testProjectCredentials(env);
}

/** A sandbox whose only project is the one these credentials open. */
export function sandboxFor(credentials: ProjectCredentials): Pick<SandboxConfig, 'projects'> {
  return { projects: [{ ...credentials }] };
}

/** The authentication headers of a request sent straight to the gateway. */
export function gatewayAuthHeaders(credentials: ProjectCredentials): Record<string, string> {
  return { 'X-API-AUTH': authHeaderValue(credentials.apiKey, credentials.apiSecret), 'X-API-KEY': credentials.endpointsKey };
}
