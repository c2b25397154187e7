/**
 * For tests and development against the sandbox: the well-known test project's credentials
 * (which the sandbox accepts by default), its sub-merchants and the sandbox's test cards.
 */
export * from './test-project.js';
