/**
 * The sandbox: an offline, stateful twin of the gateway (see app.ts and docs/sandbox.md).
 * The companion must not import it; the test project's credentials and cards are in
 * server/gateway/test-project.ts for everyone.
 */
export { createSandbox } from './app.js';
export type { SandboxApp, SandboxHandle } from './app.js';
export { DEFAULT_TIMINGS, DEFAULT_WEBHOOKS, defaultProject, strictFromEnv } from './config.js';
export type { Project, SandboxConfig, SandboxTimings, ThreeDSecurePolicy, WebhookSettings } from './config.js';
export { everyInterfaceWarning, readSandboxEnvironment } from './command-line.js';
export type { SandboxEnvironment, SandboxOptions } from './command-line.js';
export { parseProjects, ProjectsFileError, readProjectsFile } from './projects-file.js';
export { FaultSettings } from './faults.js';
export type { Delivery, WebhookAttempt } from './webhook-sender.js';
