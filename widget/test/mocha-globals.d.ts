// The Mocha globals of the browser tests (web-test-runner runs them with Mocha); the few used here
// do not warrant @types/mocha.
declare function describe(title: string, suite: () => void): void;
declare function it(title: string, test: () => unknown): void;
declare function before(hook: () => unknown): void;
declare function beforeEach(hook: () => unknown): void;
declare function afterEach(hook: () => unknown): void;
declare function after(hook: () => unknown): void;
