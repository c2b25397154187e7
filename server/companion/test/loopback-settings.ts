import { readCompanionConfig } from '../settings.js';
import type { CompanionSettings } from '../settings.js';

/** The bin's settings for a test: any free port on 127.0.0.1, a ledger in memory, an admin token; `env` adds to them. */
export function loopbackSettings(env: Readonly<Record<string, string>> = {}): CompanionSettings {
  return readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', ...env });
}
