/**
 * Whether the public URL reaches this companion. The gateway's webhooks and the customer's way
 * back from 3-D Secure or the hosted page go there, and a wrong one fails without a word at the
 * time: no webhook arrives, a customer who has paid lands on a dead page. So a public URL on
 * this machine (a development setup) is asked once, when the first request comes in (a
 * companion mounted in a shop's server cannot ask before the shop listens), at the address the
 * gateway itself will post to: `GET <publicUrl>/webhooks/gateway`, which the companion refuses
 * (405, nothing done) naming itself. Not `/healthz`: a development proxy in front forwards what
 * the gateway and browsers use, and need not forward that. A URL elsewhere is asked too — behind
 * a shop's own proxy a prefix left out or a port typed wrong loses every webhook as surely — but
 * a machine may not reach its own public address (a firewall, DNS that answers otherwise
 * inside): no answer from one is a warning that it could not be checked, not an error.
 * Any companion there is not enough: one on another ledger (another shop's, another checkout of
 * the project, the port typed wrong) takes the webhooks and returns into a ledger that knows
 * none of these payments, and they stay pending. Found there, the companion is posted an empty
 * form too, as the gateway posts: a server in front may let a GET through and refuse that.
 * Nor is the public URL always what is wrong then: instances of one shop on one PostgreSQL ledger,
 * one restarted with its database URL missing the schema, answer the same public URL from two
 * ledgers. An instance whose start made its ledger says that first: its own database URL is the
 * likelier fault.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, MiddlewareHandler } from 'hono';
import { tlsFailureOf } from '@payform/gateway';
import { routePath } from 'hono/route';
import type { CompanionEnv, CompanionServices } from '../context.js';
import type { Health } from '../openapi/api-catalog.js';
import { errorCode } from '../log/error-code.js';
import type { Logger } from '../log/logger.js';
import { isLoopbackHost } from '../loopback.js';
import { requestAddress } from '../http/request-address.js';
import { OWN_PROBE_HEADER } from '../http/own-probe.js';

/** `/healthz` and the webhook route's refusal of a GET name the companion process that answered: a probe knows it reached a companion, not just a server. */
export const INSTANCE_HEADER = 'Payform-Instance';
/** They name the ledger the companion serves too: instances of one companion answer the same. */
export const LEDGER_HEADER = 'Payform-Ledger';
/** A companion's 404 names its base path (for the widget's diagnosis): a companion with no route there. */
export const BASE_PATH_HEADER = 'Payform-Base-Path';

/** Where the gateway posts its webhooks, below the public URL: what the check asks. */
const WEBHOOK_ROUTE = '/webhooks/gateway';

/**
 * How 0.2, and 0.3 before the webhook route named itself, refuse a GET there (405, `Allow: POST`):
 * no other server answers that envelope, word for word, so it is a companion's, though one that
 * cannot say which ledger it serves.
 */
const EARLIER_REFUSAL = { code: 'method_not_allowed', message: 'Use POST' };

/**
 * How long one ask may take. A development server compiles a route on its first request (a fresh
 * `next dev`: 9 s here), so the first asks wait long; the check runs beside the requests, so none
 * of them waits for it.
 */
const PROBE_TIMEOUT_MS = 30_000;
/** A companion still opening its ledger (migrations may take minutes) is asked again this often, this many times. */
const STARTING_RETRY_MS = 1_000;
const STARTING_RETRIES = 180;

export interface PublicUrlCheck {
  readonly publicUrl: string;
  readonly basePath: string;
  /** What this companion answers in LEDGER_HEADER (`ledgerTag`). */
  readonly ledgerTag: string;
  /** What its probes carry in OWN_PROBE_HEADER (ownProbeToken), for the request log to tell them. */
  readonly probeToken: string;
  readonly logger: Logger;
  /** Told when the check finds the public URL wrong: `payform_public_url_wrong`, for an alert to page on. */
  readonly wrong?: () => void;
  readonly fetch?: typeof globalThis.fetch;
}

/** This companion's name for the probe, in INSTANCE_HEADER. */
export const instanceId = randomUUID();

/** The ledger's name as the companion shows it: a digest, so the id itself never leaves the ledger. */
export function ledgerTag(ledgerId: string): string {
  return createHash('sha256').update(`payform-ledger:${ledgerId}`).digest('hex').slice(0, 16);
}

/** The headers `/healthz` and every 405 answer (the webhook route's refusal of a GET among them): built once, when the app is. */
export function companionIdentity(ledgerTag: string): Readonly<Record<string, string>> {
  return { [INSTANCE_HEADER]: instanceId, [LEDGER_HEADER]: ledgerTag };
}

/** Neither the bin's variable nor a mounted companion's option is assumed: whoever reads it set one. */
const NAMED = 'PAYFORM_PUBLIC_URL (or the publicUrl option)';

/** What the check knows of the ledger this companion serves: read from the request's services (none in a bare app). */
interface ServedLedger {
  /** This start made it (Ledger.createdNow): a database URL that differs from the other instances' is likelier than a wrong public URL. */
  readonly createdNow: boolean;
  readonly dialect: 'sqlite' | 'postgres' | undefined;
}

/** What of PAYFORM_DATABASE_URL instances sharing a ledger must have alike, besides the URL itself. */
function alsoAlike(dialect: ServedLedger['dialect']): string {
  return dialect === 'postgres' ? ' (its schema too: ?options=-c%20search_path%3D…)' : dialect === 'sqlite' ? ' (the same file)' : '';
}

/** What the webhook route answered, as far as it says whose it is. */
interface Reply {
  readonly status: number;
  readonly companion: boolean;
  /** LEDGER_HEADER; null from a companion that does not name its ledger. */
  readonly ledger: string | null;
  /** A companion's 404 (BASE_PATH_HEADER): one is there, with no route at that path; its base path ('' for none). */
  readonly noRouteUnder?: string;
  /** Where a redirect points (http:// to https://, a trailing slash): the address to give may be that one. */
  readonly location?: string;
}

/**
 * The middleware that asks, once. Every later request pays a boolean and a plain call: no
 * async frame of its own on the pay and webhook paths.
 */
export function checkPublicUrl({ publicUrl, basePath, ledgerTag: ours, probeToken, logger, wrong = () => {}, fetch = globalThis.fetch }: PublicUrlCheck): MiddlewareHandler<CompanionEnv> {
  // Each error the check says is webhooks or customers' returns lost: said once, and kept in a gauge.
  const sayWrong: Logger['error'] = (message, fields) => (wrong(), logger.error(message, fields));
  const publicHost = new URL(publicUrl).hostname;
  const elsewhere = !isLoopbackHost(publicHost);
  let asked = false;

  const webhookUrl = `${publicUrl}${WEBHOOK_ROUTE}`;
  // Where a host mounts the companion for the public URL to reach it: its path, the base path.
  const publicPath = new URL(publicUrl).pathname.replace(/\/+$/, '') || '/';
  /**
   * `proxied`: the first request came through a proxy (X-Forwarded-For), so `arrivedAt` is the
   * address it asks, not the public one. `hostWritten`: its host is neither this machine's nor the
   * public URL's, so it is only what the sender wrote in Host (anyone may write any): named as
   * such, never as the address to give — a stranger's first request must not put its own host in
   * the fix an operator follows, and with it the webhooks and the customers' way back.
   */
  const probe = async (arrivedAt: string, mountedUnder: string, proxied: boolean, hostWritten: boolean, inProcess: boolean, served: ServedLedger, stopping: () => boolean) => {
    let problem: string;
    // A companion on another ledger answers there, naming it.
    let anotherLedger: string | undefined;
    // Another server's answer at the very address this companion was reached at (a 404 handler
    // mounted first — NestJS's, when app.use comes after listen() — or a single-page app's
    // catch-all page): the URL is right, and the server there answers before the companion can.
    let unmounted = false;
    let answered = 0;
    // Nothing answered at an address off this machine: perhaps only from here.
    let unreached = false;
    try {
      const reply = await askOnceOpened(webhookUrl, fetch, probeToken);
      if (!reply) {
        logger.debug(`PAYFORM_PUBLIC_URL: the companion at ${publicUrl} is still starting, so whose ledger it serves is not known`, { public_url: publicUrl });
        return;
      }
      const { companion, ledger: theirs } = reply;
      // An instance of an earlier version (a rolling upgrade) names no ledger: not a stranger for that.
      if (companion && theirs === null) {
        logger.debug(`PAYFORM_PUBLIC_URL reaches a companion: ${webhookUrl} answers from an earlier version, which does not name its ledger`, { public_url: publicUrl });
        return;
      }
      // Another instance on the same ledger serves this companion's customers as well.
      if (companion && theirs === ours) {
        const refusal = await postRefusal(webhookUrl, fetch, probeToken);
        // Stopped as it posted: the refusal was its own 503 shutting_down.
        if (refusal === undefined || stopping()) logger.debug(`PAYFORM_PUBLIC_URL reaches this companion: ${webhookUrl} answers from an instance on its ledger`, { public_url: publicUrl });
        else {
          sayWrong(
            `${NAMED} reaches this companion, but a form-encoded POST to ${webhookUrl} with no Origin header, as the gateway sends each webhook, ${refusal.said} ` +
              'from a server in front of it: every webhook would be refused there, and what changes at the gateway later (a refund or reversal made there) would never reach the ledger. ' +
              (refusal.status === 405
                ? 'Hand POST requests to the companion as well: the route in front of it takes only GETs (a React Router resource route with a loader and no action; a Next.js route handler that exports no POST)'
                : "Let such posts through to the companion: a CSRF check refuses them (SvelteKit's: csrf: { trustedOrigins: ['*'] }; Astro's: security: { checkOrigin: false }; " +
                  "each with the check kept for your own routes, as docs/companion.md shows), or a firewall's rule"),
            { public_url: publicUrl },
          );
        }
        return;
      }
      // Mounted under a path its basePath leaves out, its own routes answer 404 there: that is the fix.
      const { noRouteUnder } = reply;
      // Through a proxy that keeps Host, the address the companion was asked at says nothing of the
      // path the proxy took off in front: its path is the likelier fix (the hint below).
      unmounted = !companion && noRouteUnder === undefined && sameAddress(arrivedAt, publicUrl) && mountedUnder === '' && !proxied;
      answered = reply.status;
      if (companion) anotherLedger = theirs ?? undefined;
      problem = companion
        ? `${webhookUrl} answers from another payform companion, on another ledger (${LEDGER_HEADER} ${theirs} there, ${ours} here): ` +
          "another shop's or checkout's, or one on a port typed wrong. Its ledger knows none of this companion's payments, which would stay pending"
        : noRouteUnder !== undefined
          ? `${webhookUrl}, where the gateway posts webhooks, is answered 404 by a payform companion that has no route at that path ` +
            `(${noRouteUnder ? `its base path is ${noRouteUnder}` : 'it has no base path'})`
          : `${webhookUrl}, where the gateway posts webhooks, answers ${reply.status}${reply.location ? ` redirecting to ${reply.location}` : ''} from a server that is not a payform companion`;
    } catch (error) {
      // An https:// URL to the companion's own plain http: something answers, just not in TLS.
      const plainHttp = tlsFailureOf(error)?.plainHttp === true;
      problem = plainHttp
        ? `what answers at ${publicUrl} speaks plain http, not https (${reasonOf(error)}): nothing in front of the companion takes TLS there`
        : `nothing answers at ${publicUrl} (${reasonOf(error)})`;
      unreached = elsewhere && !plainHttp;
    }
    // Stopped as the probe went out (a deploy rolled back, a script's first request and close()):
    // its own 503 shutting_down, or nothing listening any more, says nothing of the address.
    if (stopping()) return void logger.debug(`PAYFORM_PUBLIC_URL was not checked: the companion stopped as it asked ${webhookUrl}`, { public_url: publicUrl });
    // Mounted at its base path and given the base path too: the public URL is not what to change.
    const doubled = doubledBy(mountedUnder, basePath);
    const reached = hostWritten ? `${arrivedAt} (the host its first request named in Host, which any sender writes: check it is yours)` : arrivedAt;
    const hint =
      basePath && publicUrl.endsWith(`${basePath}${basePath}`)
        ? `; it ends with the base path ${basePath}, which the companion adds itself: leave it out`
        : mountedUnder
          ? `; ${mountAdvice(mountedUnder, basePath, reached)}`
          : arrivedAt === publicUrl && !proxied
            ? ''
            : proxied
              ? `; requests reach this companion through a proxy (they carry X-Forwarded-For), which asks it at ${reached}: give the public address the proxy serves it at, with the path the proxy forwards to it (https://shop.example/pay for the proxy's /pay/)`
              : `; requests reach this companion at ${reached}`;
    const fix = doubled
      ? `. ${upperFirst(mountAdvice(mountedUnder, basePath, reached))}`
      : unmounted
        ? (inProcess
            ? `: the server there answers ${answered} itself, so the companion is probably not mounted at that path in it (it was first asked in process, by its host’s own call, which says nothing of where the host mounts it). `
            : `: the address is right (requests reach this companion at it), but the server there answers ${answered} itself, so the companion is probably not mounted at that path in it. `) +
          (answered === 404
            ? `Mount it at ${publicPath} (its base path), before the server's 404 handler (in NestJS and Express, app.use('${publicPath}', …) before listen()); in Hono, give its path as basePath and mount it with route('/', companion.app), not route('${publicPath}', …), which the addresses it gives out would leave out`
            : 'Mount it before the routes of the server that answer under that path (a static folder, a single-page app’s catch-all page)')
        : `: set it to the address the companion answers at${hint}` +
          // Or the instance there is this shop's, and one of the two runs on another database.
          (anotherLedger === undefined
            ? ''
            : '. Or, if that companion is another instance of this one, the two run on different databases (the one whose start made a new ledger said so in its log: ' +
              `\`new: made by this start\`): give every instance the same PAYFORM_DATABASE_URL${alsoAlike(served.dialect)}`);
    if (anotherLedger !== undefined && served.createdNow && served.dialect === 'postgres' && !doubled) {
      // Instances of one shop on one address, this one on a ledger of its own made just now (a
      // schema left out of its URL): the other instances' ledger is the one to share. Not on
      // SQLite, whose every first start (and every start in memory) makes a new ledger: there a
      // public URL reaching another companion (a port typed wrong) is the likelier fault.
      sayWrong(
        `${NAMED} reaches another payform companion, on another ledger (${LEDGER_HEADER} ${anotherLedger} at ${webhookUrl}, ${ours} here): ` +
          `this start made a new ledger, and the instance answering at the public URL runs on another. Most likely this instance's database is the wrong one: ` +
          `give this instance the same PAYFORM_DATABASE_URL as the others${alsoAlike(served.dialect)}, and start it again. The gateway's webhooks and the customer's way back from 3-D Secure or the hosted page ` +
          `go to the instance there, whose ledger knows none of the payments taken here, which would stay pending. Only if that companion is another shop's or checkout's, ` +
          `or one on a port typed wrong, set ${NAMED} to the address this companion answers at${hint}`,
        { public_url: publicUrl },
      );
      return;
    }
    if (unreached) {
      logger.warn(
        `${NAMED} could not be checked from this machine: ${problem}. The customer's way back from 3-D Secure or the hosted page, and the gateway's webhooks, ` +
          `are sent there, and are lost if the gateway cannot reach it either${fix}. If only this machine cannot reach its own public address (a firewall, DNS that answers ` +
          "otherwise inside), pay with the 3-D Secure test card through that address and see the webhook arrive (`webhook received` in the log)",
        { public_url: publicUrl },
      );
      return;
    }
    // An error, not a warning: every webhook and every return from 3-D Secure would be lost, and a
    // log kept at PAYFORM_LOG_LEVEL=error must still say it.
    sayWrong(
      `${NAMED} does not reach this companion: ${problem}. The customer's way back from 3-D Secure ` +
        `or the hosted page, and the gateway's webhooks, are sent there${fix}`,
      { public_url: publicUrl },
    );
  };

  // Off this machine the address may not be reachable from here, but one mistake shows in the address itself.
  if (elsewhere && basePath && publicUrl.endsWith(`${basePath}${basePath}`)) {
    sayWrong(
      `${NAMED} ends with the base path ${basePath}, which the companion adds itself: the customer's way back ` +
        `from 3-D Secure or the hosted page, and the gateway's webhooks, are sent under ${publicUrl}; leave ${basePath} out, unless the server also mounts the companion under it`,
      { public_url: publicUrl },
    );
  }

  /**
   * Where a server mounts the companion, under a path of its own (Hono's basePath('/shop'),
   * route('/payments', …)), in front of its base path. Where the companion's own path ends is
   * where this middleware was registered (`<mount><basePath>/*`), not the first `<basePath>/` in
   * the path: mounted at /payments, that is the mount's.
   */
  const mountOf = (c: Context<CompanionEnv>, pathname: string): string => {
    const registered = routePath(c).replace(/\/\*$/, '');
    const prefix = pathname.split('/').slice(0, registered.split('/').length).join('/');
    // Without a base path too: route('/shop', companion.app) is the commonest mount to get wrong.
    // Mounted in Express (toNodeListener) outside its base path: its mount path, which the
    // path handed back whole no longer tells apart (mounted at /payments with no basePath).
    const hostMount = (c.env?.incoming as { baseUrl?: unknown } | undefined)?.baseUrl;
    return typeof hostMount === 'string' && hostMount !== '' && !hostMount.startsWith(basePath || '\0')
      ? hostMount
      : registered.endsWith(basePath) && prefix.endsWith(basePath)
        ? prefix.slice(0, prefix.length - basePath.length)
        : '';
  };
  // Whether a request from a server (one with an `env`) was seen: the host's own calls in process
  // (`app.fetch(request)`, opening a session) carry none and say nothing of a mount, so when the
  // first request was one of those, the first from a server is looked at again.
  let served = false;

  return (c, next) => {
    if (!served && c.env !== undefined) {
      const address = requestAddress(c.req.url);
      // A request whose Host no URL can hold says nothing of where the companion is: the next one may.
      served = address !== undefined;
      // The very first request is the probe's (below), which names a mount itself.
      const mountedUnder = address && asked ? mountOf(c, address.pathname) : '';
      // The path only: the host is what its sender wrote (a stranger's, perhaps), the mount is this server's own.
      if (mountedUnder) sayWrong(misrouted(mountedUnder, basePath, `${mountedUnder}${basePath}`), { public_url: publicUrl });
    }
    const address = asked ? undefined : requestAddress(c.req.url);
    if (address) {
      asked = true;
      const { origin, pathname, hostname } = address;
      const mountedUnder = mountOf(c, pathname);
      const hostWritten = !isLoopbackHost(hostname) && hostname !== publicHost;
      // Set by the companion's app on every request before this runs; a bare app in a test has none.
      const services = c.get('services') as CompanionServices | undefined;
      const ledger = services?.ledger;
      const served = { createdNow: ledger?.createdNow === true, dialect: ledger?.dialect };
      const stopping = () => services?.readiness.draining === true;
      // In process (no `env`: the host's own `app.fetch`, which may build its URL from the public
      // one), the request came through no server: its address proves nothing of a mount.
      void probe(origin + mountedUnder + basePath, mountedUnder, c.req.header('x-forwarded-for') !== undefined, hostWritten, c.env === undefined, served, stopping);
    }
    return next();
  };
}

/**
 * Mounted at its base path and given the base path too (Hono's route('/payments', …) of a
 * companion with basePath /payments): its routes are under both, the addresses it gives out under one.
 */
const doubledBy = (mountedUnder: string, basePath: string): boolean => basePath !== '' && mountedUnder.endsWith(basePath);

/** What to change when requests reach the companion at `reached`, mounted under `mountedUnder` in front of its base path. */
function mountAdvice(mountedUnder: string, basePath: string, reached: string): string {
  return doubledBy(mountedUnder, basePath)
    ? `the base path is doubled: requests reach this companion at ${reached}, as the mount path (${mountedUnder}) and basePath both add ${basePath}. ` +
        `basePath already puts the companion's routes under ${basePath}: keep basePath ${basePath}, and mount the app without ${basePath} (Hono: route('/', companion.app))`
    : `requests reach this companion at ${reached}, mounted under ${mountedUnder}: set basePath to ${mountedUnder}${basePath}, so that its routes and the addresses it gives out agree`;
}

const upperFirst = (text: string): string => text[0]!.toUpperCase() + text.slice(1);

/**
 * A mount the first request did not show (it came in process): every address the companion
 * gives out misses the mount's path, so the gateway's webhooks and the customers' way back reach
 * no route.
 */
function misrouted(mountedUnder: string, basePath: string, reached: string): string {
  return (
    "the gateway's webhooks and the customer's way back from 3-D Secure or the hosted page are sent where no route of the companion answers. " +
    upperFirst(mountAdvice(mountedUnder, basePath, reached)) +
    (doubledBy(mountedUnder, basePath) ? '' : `, and mount the app without ${mountedUnder} (Hono: route('/', companion.app))`)
  );
}

/** Whether two addresses are the same, this machine's names (localhost, 127.0.0.1, ::1) taken as one. */
function sameAddress(one: string, other: string): boolean {
  const normal = (address: string) => {
    const url = URL.parse(address);
    if (!url) return address;
    if (isLoopbackHost(url.hostname)) url.hostname = '127.0.0.1';
    return url.href.replace(/\/$/, '');
  };
  return normal(one) === normal(other);
}

/**
 * The webhook route's answer, asked again while a companion there is still opening its ledger
 * (startCompanion's `{"status":"starting"}` names no ledger yet); undefined if it never finished.
 * Told by its body, not by the missing ledger header: an earlier version's instance never sends it.
 */
async function askOnceOpened(url: string, fetch: typeof globalThis.fetch, probeToken: string): Promise<Reply | undefined> {
  for (let retry = 0; retry <= STARTING_RETRIES; retry += 1) {
    if (retry > 0) await sleep(STARTING_RETRY_MS, undefined, { ref: false });
    const answer = await fetch(url, { headers: { [OWN_PROBE_HEADER]: probeToken }, redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const { status, headers } = answer;
    if (!headers.has(INSTANCE_HEADER)) {
      const under = status === 404 ? headers.get(BASE_PATH_HEADER) : null;
      const location = status >= 300 && status < 400 ? headers.get('location') : null;
      return {
        status,
        companion: await refusedAsEarlier(answer),
        ledger: null,
        ...(under === null ? {} : { noRouteUnder: under }),
        ...(location === null ? {} : { location: URL.parse(location, url)?.href ?? location }),
      };
    }
    const ledger = headers.get(LEDGER_HEADER);
    if (ledger !== null) {
      await answer.body?.cancel();
      return { status, companion: true, ledger };
    }
    if (!(await stillStarting(answer))) return { status, companion: true, ledger };
  }
  return undefined;
}

/**
 * How the webhook route answers a post as the gateway sends one (form-encoded, no Origin), if
 * not as the companion does: undefined when it is the companion's refusal of an empty form (400
 * naming `data`; nothing is stored), or its own 500 for a body a host read first (said by the
 * companion already). The GET was let through; a check on cross-site form posts in front of it
 * (SvelteKit's CSRF check) refuses only this.
 */
async function postRefusal(url: string, fetch: typeof globalThis.fetch, probeToken: string): Promise<{ readonly said: string; readonly status?: number } | undefined> {
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', [OWN_PROBE_HEADER]: probeToken },
      body: '',
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const error = ((await answer.json().catch(() => undefined)) as { error?: { code?: unknown; fields?: Record<string, unknown> } } | undefined)?.error;
    const companions = (answer.status === 400 && error?.code === 'invalid_request' && error.fields?.data !== undefined) || error?.code === 'body_already_read';
    return companions ? undefined : { said: `is answered ${answer.status}`, status: answer.status };
  } catch (error) {
    return { said: `gets no answer (${reasonOf(error)})` };
  }
}

async function stillStarting(answer: Response): Promise<boolean> {
  const health: unknown = await answer.json().catch(() => undefined);
  return (health as Partial<Health> | undefined)?.status === 'starting';
}

/** An earlier companion's refusal of the GET (EARLIER_REFUSAL); any other answer's body is left unread. */
async function refusedAsEarlier(answer: Response): Promise<boolean> {
  if (answer.status !== 405 || answer.headers.get('allow') !== 'POST') {
    await answer.body?.cancel();
    return false;
  }
  const refusal = ((await answer.json().catch(() => undefined)) as { error?: Record<string, unknown> } | undefined)?.error;
  return refusal?.code === EARLIER_REFUSAL.code && refusal.message === EARLIER_REFUSAL.message;
}

function reasonOf(error: unknown): string {
  const code = errorCode(error);
  if (code !== undefined) return code;
  return error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : String((error as Error)?.message ?? error);
}
