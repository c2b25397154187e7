import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';

/** A promise and the function that settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

describe('InFlight', () => {
  it('is drained at once when nothing is under way', async () => {
    expect(await new InFlight().drained(10)).toBe(true);
  });

  it('waits for what it tracks, failures included, and for work started as the last one settles', async () => {
    const inFlight = new InFlight();
    const first = deferred();
    const failing = deferred();
    const later = deferred();
    inFlight.track(first.promise);
    inFlight.track(failing.promise).catch(() => undefined);
    // What the first piece's continuation starts, the moment it settles.
    void first.promise.then(() => inFlight.track(later.promise));
    expect(inFlight.size).toBe(2);
    let drained: boolean | undefined;
    const draining = inFlight.drained(5_000).then((result) => (drained = result));
    failing.reject(new Error('gone'));
    first.resolve();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(drained).toBeUndefined();
    expect(inFlight.size).toBe(1);
    later.resolve();
    await draining;
    expect(drained).toBe(true);
    expect(inFlight.size).toBe(0);
  });

  it('gives up after the time allowed, and the work carries on', async () => {
    const inFlight = new InFlight();
    const stuck = deferred();
    inFlight.track(stuck.promise);
    expect(await inFlight.drained(20)).toBe(false);
    expect(inFlight.size).toBe(1);
    stuck.resolve();
    expect(await inFlight.drained(1_000)).toBe(true);
  });
});
