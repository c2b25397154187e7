// The public URL check between instances of one shop on one PostgreSQL ledger, one of them
// started with PAYFORM_DATABASE_URL missing the schema (`?options=-c%20search_path%3D…`): it made
// a new ledger in `public`, and the instance answering at PAYFORM_PUBLIC_URL is on the shared one.
// Real companions (startCompanion, as the bin) on a database of the test's own.
import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../ledger/testing/databases.js';
import { databaseWithRoleSettings } from '../../ledger/testing/role-settings.js';
import { withClient } from '../../ledger/testing/schema-pool.js';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { createLogger, memorySink } from '../log/logger.js';
import { readCompanionConfig } from '../settings.js';
import { startCompanion } from '../start.js';
import type { RunningCompanion } from '../start.js';
import { eachServedSandbox } from '../test/served-sandbox.js';
import { eventually } from '../test/stack.js';
import { LEDGER_HEADER } from './public-url-check.js';

let sandbox: ServedSandbox;
eachServedSandbox('payform-public-url-schema-', (made) => ({ sandbox } = made));

/** A started companion on `databaseUrl`, its public URL `publicUrl` (its own address when undefined), and its log. */
async function started(databaseUrl: string, publicUrl?: string): Promise<{ companion: RunningCompanion; lines: string[] }> {
  const memory = memorySink();
  const settings = readCompanionConfig({
    PORT: '0',
    PAYFORM_HOST: '127.0.0.1',
    PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token',
    PAYFORM_DATABASE_URL: databaseUrl,
    ...(publicUrl ? { PAYFORM_PUBLIC_URL: publicUrl } : {}),
  });
  const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ level: 'debug', sink: memory.sink }) });
  return { companion, lines: memory.lines };
}

/** The check's one line in `lines`, once it is logged. */
const theCheckLine = (lines: readonly string[]) =>
  eventually(() => {
    const found = lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.startsWith('PAYFORM_PUBLIC_URL'));
    expect(found).toHaveLength(1);
    return found[0]!;
  });

withTestDatabase((url) => {
  describe('the public URL check, an instance on a schema of its own', () => {
    it('names this instance’s database URL first when its start made the ledger, and names it second on the shared one; readiness stays', async () => {
      // Not a schema named as the test's role: the default search_path ("$user", public) would find it without the option.
      const database = await databaseWithRoleSettings(url, {}, async (own) => void (await withClient(own, (client) => client.query('create schema shop_ledger'))));
      const shared = Object.assign(new URL(database.url), { search: '?options=-c%20search_path%3Dshop_ledger' }).href;
      const running: RunningCompanion[] = [];
      try {
        const first = await started(shared);
        running.push(first.companion);
        // Restarted with the query string left out: a new ledger in public, the public URL the others'.
        const stray = await started(database.url, first.companion.url);
        running.push(stray.companion);
        expect(stray.lines.some((line) => line.includes(', new: made by this start'))).toBe(true);
        const [ours, theirs] = [
          (await fetch(`${stray.companion.url}/healthz`)).headers.get(LEDGER_HEADER),
          (await fetch(`${first.companion.url}/healthz`)).headers.get(LEDGER_HEADER),
        ];
        expect(ours).not.toBe(theirs);
        const said = await theCheckLine(stray.lines);
        expect(said.level).toBe('error');
        expect(said.msg).toBe(
          `PAYFORM_PUBLIC_URL (or the publicUrl option) reaches another payform companion, on another ledger (${LEDGER_HEADER} ${theirs} at ${first.companion.url}/webhooks/gateway, ${ours} here): ` +
            'this start made a new ledger, and the instance answering at the public URL runs on another. Most likely this instance\'s database is the wrong one: ' +
            'give this instance the same PAYFORM_DATABASE_URL as the others (its schema too: ?options=-c%20search_path%3D…), and start it again. ' +
            "The gateway's webhooks and the customer's way back from 3-D Secure or the hosted page go to the instance there, whose ledger knows none of the payments taken here, " +
            "which would stay pending. Only if that companion is another shop's or checkout's, or one on a port typed wrong, " +
            `set PAYFORM_PUBLIC_URL (or the publicUrl option) to the address this companion answers at; requests reach this companion at ${stray.companion.url}`,
        );
        // Said, not taken out of service: which side is wrong is the operator's to tell, and this instance's database works.
        expect((await fetch(`${stray.companion.url}/readyz`)).status).toBe(200);

        // An instance on the shared ledger whose public URL reaches the stray one: the public URL first, the databases second.
        const another = await started(shared, stray.companion.url);
        running.push(another.companion);
        await fetch(`${another.companion.url}/healthz`);
        const told = await theCheckLine(another.lines);
        expect(told.level).toBe('error');
        expect(told.msg).toContain(`: set it to the address the companion answers at; requests reach this companion at ${another.companion.url}. `);
        expect(told.msg).toMatch(
          /\. Or, if that companion is another instance of this one, the two run on different databases \(the one whose start made a new ledger said so in its log: `new: made by this start`\): give every instance the same PAYFORM_DATABASE_URL \(its schema too: \?options=-c%20search_path%3D…\)$/,
        );
      } finally {
        for (const companion of running.reverse()) await companion.close();
        await database.drop();
      }
    });
  });
});
