#!/usr/bin/env node
/**
 * `npm run sandbox`: the sandbox alone, over HTTP.
 *
 *   SANDBOX_PORT        port (default 3001; 0 picks a free one)
 *   SANDBOX_HOST        address to listen on (default 127.0.0.1: the control plane has no credentials)
 *   SANDBOX_PUBLIC_URL  base of the links it hands out (default: the address each request came to)
 *   GATEWAY_POS_ID, GATEWAY_API_KEY, GATEWAY_API_SECRET, GATEWAY_ENDPOINTS_KEY  the test project's credentials
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSandbox } from './app.js';

const port = Number(process.env.SANDBOX_PORT ?? 3001);
const hostname = process.env.SANDBOX_HOST ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`SANDBOX_PORT must be a port number, not ${process.env.SANDBOX_PORT ?? ''}`);
  process.exit(1);
}

const sandbox = createSandbox({
  publicUrl: process.env.SANDBOX_PUBLIC_URL || undefined,
  log: (line) => console.log(`[sandbox] ${line}`),
});
const project = sandbox.sandbox.gateway.defaultProject;

const server = serve({ fetch: sandbox.fetch, port, hostname }, (info: AddressInfo) => {
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  const url = process.env.SANDBOX_PUBLIC_URL || `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${info.port}`;
  console.log(`payform sandbox gateway listening on ${url}
  GATEWAY_BASE_URL=${url}
  GATEWAY_POS_ID=${project.posId}
  GATEWAY_API_KEY=${project.apiKey}
  GATEWAY_API_SECRET=${project.apiSecret}
  GATEWAY_ENDPOINTS_KEY=${project.endpointsKey}
  control plane: ${url}/_sandbox   test cards: ${url}/   docs: docs/sandbox.md`);
});

server.on('error', (error) => {
  console.error(`payform sandbox could not start: ${error.message}`);
  process.exit(1);
});

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`payform sandbox stopping (${signal})`);
  if ('closeAllConnections' in server) server.closeAllConnections();
  server.close(() => void sandbox.sandbox.stop().then(() => process.exit(0)));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
