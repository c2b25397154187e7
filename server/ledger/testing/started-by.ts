// The package manager a test's process was started by, as the driver hints read it
// (npm_config_user_agent): set for each test, put back after.
import { afterEach, beforeEach } from 'vitest';

/** Each test of the file runs as if started by `agent` (undefined: by none, `node` itself). */
export function startedBy(agent: string | undefined): void {
  const own = process.env.npm_config_user_agent;
  beforeEach(() => setAgent(agent));
  afterEach(() => setAgent(own));
}

export function setAgent(agent: string | undefined): void {
  if (agent === undefined) delete process.env.npm_config_user_agent;
  else process.env.npm_config_user_agent = agent;
}
