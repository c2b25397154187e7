/**
 * The default sink's batching: a turn's lines in one write, warnings and errors at once with
 * what came before them, and nothing lost when the process ends before the turn does.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bundled } from '../../../e2e/entry-points.mjs';
import { batchedByTurn, createLogger } from './logger.js';

function recordedWrites() {
  const writes: string[] = [];
  return { writes, logger: createLogger({ sink: batchedByTurn((text) => writes.push(text)), level: 'debug' }) };
}

const messages = (text: string) => text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('batchedByTurn', () => {
  it("writes a turn's lines once, in order, after the turn", async () => {
    const { writes, logger } = recordedWrites();
    logger.info('one');
    logger.debug('two');
    logger.info('three');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes.map(messages)).toEqual([['one', 'two', 'three']]);
    logger.info('four');
    await nextTurn();
    expect(writes.map(messages)).toEqual([['one', 'two', 'three'], ['four']]);
  });

  it('writes a warning or an error at once, after the lines before it', async () => {
    const { writes, logger } = recordedWrites();
    logger.info('before');
    logger.warn('careful');
    expect(writes.map(messages)).toEqual([['before', 'careful']]);
    logger.info('after');
    logger.error('broken');
    expect(writes.map(messages)).toEqual([['before', 'careful'], ['after', 'broken']]);
    await nextTurn();
    expect(writes).toHaveLength(2);
  });

  it('writes a flood in one turn in pieces, none of them cut inside a line', async () => {
    const { writes, logger } = recordedWrites();
    // No counter in the lines: the suites' log capture is scanned for the test CVVs, 737 among them.
    for (let line = 0; line < 1_000; line++) logger.info('flood', { text: 'x'.repeat(100) });
    expect(writes.length).toBeGreaterThan(1);
    await nextTurn();
    for (const text of writes) {
      expect(text.length).toBeLessThan(80 * 1024);
      expect(text.endsWith('\n')).toBe(true);
    }
    expect(messages(writes.join(''))).toHaveLength(1_000);
  });
});

describe('the standard error sink when the process ends within the turn', () => {
  async function stderrOf(ending: string): Promise<string> {
    const logger = pathToFileURL(await bundled('server/companion/log/logger.ts')).href;
    const script = `import { createLogger } from ${JSON.stringify(logger)};
      const logger = createLogger();
      logger.info('first');
      logger.info('second');
      ${ending}`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await once(child, 'exit');
    return stderr;
  }

  it.each([
    ['process.exit()', 'process.exit(3);'],
    ['an uncaught exception', "throw new Error('ended');"],
  ])('still writes the pending lines on %s', async (_name, ending) => {
    const lines = (await stderrOf(ending)).split('\n').filter((line) => line.startsWith('{"time"'));
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['first', 'second']);
  }, 60_000);
});

describe('a log line', () => {
  it('escapes the line breaks JSON keeps, so a value sent by a client cannot start a line of its own', () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (line) => lines.push(line), level: 'debug' });
    const forged = '{"level":"error","msg":"FAKE"}';
    for (const mark of ['\u0085', '\u2028', '\u2029']) logger.warn('a page of another origin', { origin: `http://evil.example${mark}${forged}` });
    logger.info('plain', { origin: 'http://shop.example' });
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      // Python's str.splitlines() breaks at each of them; here each line stays one.
      expect(line).not.toMatch(/[\u0085\u2028\u2029]/);
      expect(line.split(/\r\n|[\n\r\u0085\u2028\u2029]/)).toHaveLength(1);
    }
    expect(lines.slice(0, 3).map((line) => (JSON.parse(line) as { origin: string }).origin)).toEqual(['\u0085', '\u2028', '\u2029'].map((mark) => `http://evil.example${mark}${forged}`));
  });

  it('escapes the text-direction controls and DEL, so a value cannot make the line read otherwise than it is', () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (line) => lines.push(line), level: 'debug' });
    // Right-to-left override, isolates and their pop: a viewer would show "refund ok" backwards, or hide what follows.
    const marks = ['\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u202a', '\u202c', '\u007f'];
    for (const mark of marks) logger.warn('a page of another origin', { origin: `http://evil.example/${mark}ko dnufer` });
    for (const [index, line] of lines.entries()) {
      expect(line).not.toMatch(/[\u007f\u202a-\u202e\u2066-\u2069]/);
      expect((JSON.parse(line) as { origin: string }).origin).toBe(`http://evil.example/${marks[index]!}ko dnufer`);
    }
  });
});
