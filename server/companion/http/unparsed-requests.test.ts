// What the HTTP adapter hands UnparsedRequests when the app's answer itself failed (its routes
// answer their own errors, so this is a fault of the companion's): the envelope, and the
// error in the log through the logger, which masks what it may quote of the request.
import { describe, expect, it } from 'vitest';
import { createLogger, memorySink } from '../log/logger.js';
import { RequestError } from '@hono/node-server';
import { REFUSAL_SAID_FOR_MS, UnparsedRequests } from './unparsed-requests.js';

function watched() {
  const memory = memorySink();
  const logger = createLogger({ sink: memory.sink, level: 'debug' });
  const clock = { now: 0 };
  return { clock, unparsed: new UnparsedRequests(() => logger, {}, () => clock.now), lines: () => memory.lines.map((line) => JSON.parse(line)) };
}

describe('an answer of the app that failed outside its routes', () => {
  it('is a 500 in the envelope, and its error is logged with its message, masked', async () => {
    const { unparsed, lines } = watched();
    const answer = unparsed.unbuilt(new Error('cannot write card 4111 1111 1111 1111'));
    expect(answer.status).toBe(500);
    expect((await answer.json()).error.code).toBe('internal_error');
    const [line] = lines();
    expect(line).toMatchObject({ level: 'error', status: 500 });
    expect(JSON.stringify(line)).toContain('cannot write card');
    expect(JSON.stringify(line)).not.toContain('4111 1111 1111 1111');
  });

  it('stays the 504 of a timeout, as the adapter answers it', async () => {
    const { unparsed, lines } = watched();
    const answer = unparsed.unbuilt(new DOMException('The operation timed out', 'TimeoutError'));
    expect(answer.status).toBe(504);
    expect((await answer.json()).error.code).toBe('timeout');
    expect(lines()[0]).toMatchObject({ level: 'error', status: 504 });
  });
});

describe('a kind of refused request said as a warning', () => {
  it('is said again an hour on: a stranger’s broken request sent first does not use the warning up', async () => {
    const { unparsed, lines, clock } = watched();
    const brokenHost = () => unparsed.unbuilt(new RequestError('Invalid URL', { cause: Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' }) }));
    expect(brokenHost().status).toBe(400);
    brokenHost();
    clock.now += REFUSAL_SAID_FOR_MS - 1;
    brokenHost();
    clock.now += 1;
    brokenHost();
    expect(lines().map((line) => line.level)).toEqual(['warn', 'debug', 'debug', 'warn']);
  });
});
