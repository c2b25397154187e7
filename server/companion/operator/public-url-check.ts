/**
 * Whether the public URL reaches this companion. The gateway's webhooks and the customer's way
 * back from 3-D Secure or the hosted page go there, and a wrong one fails without a word at the
 * time: no webhook arrives, a customer who has paid lands on a dead page. So a public URL on
 * this machine (a development setup) is asked for this companion's `/healthz` once, when the
 * first request comes in: a companion mounted in a shop's server cannot ask before the shop
 * listens. A URL elsewhere is the network's business, and may not be reachable from inside it.
 * Any companion there is not enough: one on another ledger (another shop's, another checkout of
 * the project, the port typed wrong) takes the webhooks and returns into a ledger that knows
 * none of these payments, and they stay pending.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { CompanionEnv } from '../context.js';
import type { Health } from '../openapi/api-catalog.js';
import type { Logger } from '../log/logger.js';
import { isLoopbackHost } from '../loopback.js';

/** `/healthz` names the companion process that answered: a probe knows it reached a companion, not just a server. */
export const INSTANCE_HEADER = 'Payform-Instance';
/** `/healthz` names the ledger the companion serves: instances of one companion answer the same. */
export const LEDGER_HEADER = 'Payform-Ledger';

const PROBE_TIMEOUT_MS = 3_000;
/** A companion still opening its ledger (migrations may take minutes) is asked again this often, this many times. */
const STARTING_RETRY_MS = 1_000;
const STARTING_RETRIES = 180;

export interface PublicUrlCheck {
  readonly publicUrl: string;
  readonly basePath: string;
  /** What this companion's `/healthz` answers in LEDGER_HEADER (`ledgerTag`). */
  readonly ledgerTag: string;
  readonly logger: Logger;
  readonly fetch?: typeof globalThis.fetch;
}

/** This companion's name for the probe: `/healthz` answers it in INSTANCE_HEADER. */
export const instanceId = randomUUID();

/** The ledger's name as `/healthz` shows it: a digest, so the id itself never leaves the ledger. */
export function ledgerTag(ledgerId: string): string {
  return createHash('sha256').update(`payform-ledger:${ledgerId}`).digest('hex').slice(0, 16);
}

/**
 * The middleware that asks, once. Every later request pays a boolean and a plain call: no
 * async frame of its own on the pay and webhook paths.
 */
export function checkPublicUrl({ publicUrl, basePath, ledgerTag: ours, logger, fetch = globalThis.fetch }: PublicUrlCheck): MiddlewareHandler<CompanionEnv> {
  let asked = !isLoopbackHost(new URL(publicUrl).hostname);

  const probe = async (arrivedAt: string, mountedUnder: string) => {
    let problem: string;
    try {
      const answer = await askOnceOpened(`${publicUrl}/healthz`, fetch);
      if (!answer) {
        logger.debug(`PAYFORM_PUBLIC_URL: the companion at ${publicUrl} is still starting, so whose ledger it serves is not known`, { public_url: publicUrl });
        return;
      }
      const companion = answer.headers.has(INSTANCE_HEADER);
      const theirs = answer.headers.get(LEDGER_HEADER);
      // An instance of an earlier 0.3 (a rolling upgrade) names no ledger: not a stranger for that.
      if (companion && theirs === null) {
        logger.debug(`PAYFORM_PUBLIC_URL reaches a companion: ${publicUrl}/healthz answers from an earlier version, which does not name its ledger`, { public_url: publicUrl });
        return;
      }
      // Another instance on the same ledger serves this companion's customers as well.
      if (companion && theirs === ours) {
        logger.debug(`PAYFORM_PUBLIC_URL reaches this companion: ${publicUrl}/healthz answers from an instance on its ledger`, { public_url: publicUrl });
        return;
      }
      problem = companion
        ? `${publicUrl}/healthz answers from another payform companion, on another ledger (${LEDGER_HEADER} ${theirs} there, ${ours} here): ` +
          "another shop's or checkout's, or one on a port typed wrong. Its ledger knows none of this companion's payments, which would stay pending"
        : `${publicUrl}/healthz answers ${answer.status} from a server that is not a payform companion`;
    } catch (error) {
      problem = `nothing answers at ${publicUrl} (${reasonOf(error)})`;
    }
    // Mounted at its base path and given the base path too (Hono's route('/payments', …) of a
    // companion with basePath /payments): its routes are under both, the addresses it gives out
    // under one. The public URL is not what to change.
    const doubled = basePath !== '' && mountedUnder.endsWith(basePath);
    const hint =
      basePath && publicUrl.endsWith(`${basePath}${basePath}`)
        ? `; it ends with the base path ${basePath}, which the companion adds itself: leave it out`
        : mountedUnder
          ? `; requests reach this companion at ${arrivedAt}, mounted under ${mountedUnder}: set basePath to ${mountedUnder}${basePath}, so that its routes and the addresses it gives out agree`
          : arrivedAt === publicUrl
            ? ''
            : `; requests reach this companion at ${arrivedAt}`;
    const fix = doubled
      ? `. The base path is doubled: requests reach this companion at ${arrivedAt}, as the mount path (${mountedUnder}) and basePath both add ${basePath}. ` +
        `basePath already puts the companion's routes under ${basePath}: keep basePath ${basePath}, and mount the app without ${basePath} (Hono: route('/', companion.app))`
      : `: set it to the address the companion answers at${hint}`;
    logger.warn(
      `PAYFORM_PUBLIC_URL (the publicUrl option, mounted) does not reach this companion: ${problem}. The customer's way back from 3-D Secure ` +
        `or the hosted page, and the gateway's webhooks, are sent there${fix}`,
      { public_url: publicUrl },
    );
  };

  // Off this machine nothing is asked, but one mistake shows in the address itself.
  if (asked && basePath && publicUrl.endsWith(`${basePath}${basePath}`)) {
    logger.warn(
      `PAYFORM_PUBLIC_URL (the publicUrl option, mounted) ends with the base path ${basePath}, which the companion adds itself: the customer's way back ` +
        `from 3-D Secure or the hosted page, and the gateway's webhooks, are sent under ${publicUrl}; leave ${basePath} out, unless the server also mounts the companion under it`,
      { public_url: publicUrl },
    );
  }

  return (c, next) => {
    if (!asked) {
      asked = true;
      // A server that mounts the companion under a path of its own (Hono's basePath('/shop'),
      // route('/payments', …)) puts that path before the companion's base path. Where the
      // companion's own path ends is where this middleware was registered (`<mount><basePath>/*`),
      // not the first `<basePath>/` in the path: mounted at /payments, that is the mount's.
      const { origin, pathname } = new URL(c.req.url);
      const registered = routePath(c).replace(/\/\*$/, '');
      const prefix = pathname.split('/').slice(0, registered.split('/').length).join('/');
      // Without a base path too: route('/shop', companion.app) is the commonest mount to get wrong.
      const mountedUnder = registered.endsWith(basePath) && prefix.endsWith(basePath) ? prefix.slice(0, prefix.length - basePath.length) : '';
      void probe(origin + mountedUnder + basePath, mountedUnder);
    }
    return next();
  };
}

/**
 * `/healthz`'s answer, asked again while a companion there is still opening its ledger
 * (startCompanion's `{"status":"starting"}` names no ledger yet); undefined if it never finished.
 * Told by its status, not by the missing ledger header: an earlier version's instance never sends it.
 */
async function askOnceOpened(url: string, fetch: typeof globalThis.fetch): Promise<Response | undefined> {
  for (let retry = 0; retry <= STARTING_RETRIES; retry += 1) {
    if (retry > 0) await sleep(STARTING_RETRY_MS, undefined, { ref: false });
    const answer = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!answer.headers.has(INSTANCE_HEADER) || answer.headers.has(LEDGER_HEADER)) {
      await answer.body?.cancel();
      return answer;
    }
    if (!(await stillStarting(answer))) return answer;
  }
  return undefined;
}

async function stillStarting(answer: Response): Promise<boolean> {
  const health: unknown = await answer.json().catch(() => undefined);
  return (health as Partial<Health> | undefined)?.status === 'starting';
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : String((error as Error)?.message ?? error);
}
