// A database of a test's own where the test's role starts each session with settings of its own
// (ALTER ROLE … IN DATABASE … SET), as a managed service's role or a pooler's setup has them. The
// test role may set its own defaults, not make roles; the database keeps them from other tests.
import { randomBytes } from 'node:crypto';
import { dropDatabase, withClient } from './schema-pool.js';

export interface RoleSettingsDatabase {
  /** The database, connected as the test's role. */
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A new database of the server at `url` where its role's sessions start with each of `settings`,
 * once `prepare` has filled it (unhurried by them, on a busy machine).
 */
export async function databaseWithRoleSettings(url: string, settings: Readonly<Record<string, string>>, prepare: (url: string) => Promise<void>): Promise<RoleSettingsDatabase> {
  const database = `payform_role_settings_${randomBytes(6).toString('hex')}`;
  const own = Object.assign(new URL(url), { pathname: `/${database}` }).toString();
  // The role's settings in it go with it.
  const drop = () => dropDatabase(url, database);
  await withClient(url, (client) => client.query(`create database ${database}`));
  try {
    await prepare(own);
    await withClient(url, async (client) => {
      for (const [setting, value] of Object.entries(settings)) await client.query(`alter role current_user in database ${database} set ${setting} = '${value}'`);
    });
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: own, drop };
}
