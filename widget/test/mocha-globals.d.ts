// The Mocha globals of the browser tests (web-test-runner runs them with Mocha); the few used here
// do not warrant @types/mocha.
declare function describe(title: string, suite: () => void): void;
/** Mocha's test, whose `timeout(ms)` gives one that waits long its own limit. */
declare function it(title: string, test: () => unknown): { timeout(ms: number): unknown };
declare function before(hook: () => unknown): void;
declare function beforeEach(hook: () => unknown): void;
declare function afterEach(hook: () => unknown): void;
declare function after(hook: () => unknown): void;
