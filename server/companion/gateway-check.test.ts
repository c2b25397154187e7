// The check at start against a PAYFORM_GATEWAY_BASE_URL in https:// where a plain-http server
// answers (a sandbox started with `npx payform-sandbox` speaks http): said once, as the scheme
// it is, with the fix — not as a gateway that cannot be reached.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, memorySink } from './log/logger.js';
import { loopbackSettings } from './test/loopback-settings.js';
import { startCompanion } from './start.js';
import { eventually } from './test/stack.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const one of opened.splice(0).reverse()) await one.close();
});

/** A plain-http server on 127.0.0.1, as a sandbox is; its port. */
async function plainHttpServer(): Promise<number> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return (server.address() as AddressInfo).port;
}

const errorsOf = (lines: string[]) => lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => line.level === 'error');

describe('the gateway check at start', () => {
  it('says a gateway URL where another JSON service answers is not the gateway, naming the setting', async () => {
    const port = await plainHttpServer();
    const memory = memorySink();
    const settings = loopbackSettings({ PAYFORM_GATEWAY_BASE_URL: `http://127.0.0.1:${port}` });
    opened.push(await startCompanion(settings, { logger: createLogger({ sink: memory.sink }) }));
    await eventually(() => expect(errorsOf(memory.lines)).toHaveLength(1), 15_000);
    const [said] = errorsOf(memory.lines);
    expect(said!.msg).toContain(`the gateway at http://127.0.0.1:${port} answers, but not as the gateway does (`);
    expect(said!.msg).toContain('does not have the expected shape');
    expect(said!.msg).toContain('set PAYFORM_GATEWAY_BASE_URL');
  });

  it('says an https:// gateway URL that plain http answers is so, with the http:// address to set instead', async () => {
    const port = await plainHttpServer();
    const memory = memorySink();
    const settings = loopbackSettings({ PAYFORM_GATEWAY_BASE_URL: `https://127.0.0.1:${port}` });
    opened.push(await startCompanion(settings, { logger: createLogger({ sink: memory.sink }) }));
    const errors = () => memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => line.level === 'error');
    await eventually(() => expect(errors()).toHaveLength(1), 15_000);
    expect(errors()[0]?.msg).toBe(
      `the gateway at https://127.0.0.1:${port} speaks plain http, not https (ERR_SSL_WRONG_VERSION_NUMBER): set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) ` +
        `to http://127.0.0.1:${port} if it is a sandbox (npx payform-sandbox speaks plain http), or to the gateway's https address`,
    );
  });
});
