import { once } from 'node:events';
import { request } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * A request with headers fetch would not send as given — a Host of the test's choosing — to a
 * server on 127.0.0.1; its status and headers, the body read and dropped.
 */
export async function rawRequest(port: number | string, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const sent = request({ host: '127.0.0.1', port, method, path, headers, setHost: false }).end();
  const [response] = (await once(sent, 'response')) as [IncomingMessage];
  response.resume();
  await once(response, 'end');
  return { status: response.statusCode ?? 0, headers: response.headers };
}
