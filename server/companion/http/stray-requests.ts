/**
 * Requests that came to a companion at the wrong path — a proxy or a host's route handing it
 * another path than its base path — are answered 404 like any unknown address, and what they
 * meant to do is lost (the gateway's webhooks, the widget's checkout API). Each kind is said as
 * an error, naming the base path that would take them — but only on evidence a stranger cannot
 * make up (the gateway's signature, a session this companion opened): anyone can ask any path,
 * and a scanner's must neither use the lines up nor put its own path and fix in them.
 */
import type { Context } from 'hono';
import { verifyWebhook } from '@payform/gateway';
import type { CompanionEnv } from '../context.js';
import type { Ledger } from '../../ledger/index.js';
import type { Logger } from '../log/logger.js';
import type { WebhookSecrets } from '../webhooks/webhook-routes.js';
import { formFields } from './form-fields.js';
import { SaidLately } from './said-lately.js';

/**
 * A webhook posted to a path that ends like the webhook route but is not it — a proxy that
 * forwards `/payments/…` unstripped to a companion without that base path, or strips it from
 * one with it — is answered 404 and the gateway's webhooks are lost: said once as an error,
 * with the base path that would take them. The path is named only when it is a plain one.
 * Only a post the gateway signed (the project's API secret, as the webhook route checks) is the
 * gateway's; an unsigned one is anyone's, and only a debug line.
 *
 * When it came to the very address the companion hands out as `server_url`, the public URL's
 * own path is what does not reach it (given with the base path in it, or behind a proxy that
 * does not strip it), and a longer base path would only move that address further along.
 */
export function strayWebhookNotice(basePath: string, publicUrl: string, secrets: WebhookSecrets, logger: Logger): (c: Context<CompanionEnv>) => Promise<void> {
  const route = '/webhooks/gateway';
  const handedOut = `${publicUrl}${route}`;
  const handedOutPath = new URL(handedOut).pathname;
  // PAYFORM_PUBLIC_URL's own path: what is left of the address's path before the base path.
  const publicPath = new URL(publicUrl).pathname.replace(/\/+$/, '').slice(0, basePath ? -basePath.length : undefined);
  let said = false;
  return async (c) => {
    const path = c.req.path;
    if (said || c.req.method !== 'POST' || !path.endsWith(route)) return;
    if (!(await signedByGateway(c, secrets))) {
      logger.debug('a post without the gateway’s signature came to a path ending like the webhook route: not the gateway’s, so not said');
      return;
    }
    said = true;
    if (path === handedOutPath && publicPath) {
      logger.error(
        `a webhook came to ${path}, the address this companion gives the gateway (${handedOut}), but it takes them at ${basePath}${route} only and answered 404: ` +
          `the gateway's webhooks are lost until the two agree — PAYFORM_PUBLIC_URL (the publicUrl option, mounted) has the path ${publicPath}: ` +
          'give it without that path (the companion adds its base path itself), or have the proxy in front strip it',
      );
      return;
    }
    const prefix = path.slice(0, -route.length);
    const plain = plainPath(prefix);
    logger.error(
      `a webhook came to ${plain ? path : 'another path'}, but this companion takes them at ${basePath}${route} only and answered 404: the gateway's webhooks are lost until the two agree — ` +
        `have the proxy in front forward PAYFORM_PUBLIC_URL's path as ${basePath || '/'}${plain ? `, or, mounted in your server, set basePath to ${prefix || "''"}` : ''}`,
    );
  };
}


/**
 * Whether the post is a webhook form the gateway signed, with the API secret or, during its
 * rotation, the one before (the gateway retries older events with it): read as the route reads it.
 */
async function signedByGateway(c: Context<CompanionEnv>, { current, previous }: WebhookSecrets): Promise<boolean> {
  const body = await c.req.text().catch(() => '');
  const { data, signature } = formFields(body, ['data', 'signature'] as const);
  return Boolean(data && signature && (verifyWebhook(data, signature, current) || (previous !== undefined && verifyWebhook(data, signature, previous))));
}

/**
 * The widget's checkout API asked outside the base path — a fetch host handing the companion the
 * requests of another path (a Next.js route handler under app/api/payments/ for basePath
 * /payments), a companion given no basePath, or the bin behind a proxy that does not strip the
 * path it forwards — is answered 404, and <pay-form> can only say
 * its endpoint is not the companion: said as an error, with the base path that would take
 * them. Only what comes before the route is named: the session id after it is a capability.
 *
 * Said only when the request names a session this companion opened, as the widget's do: a
 * stranger cannot make one up, so made-up paths neither crowd out the page's nor get said. Each
 * wrong path once an hour (another page's endpoint may be wrong another way), a few at most.
 */
export function strayCheckoutNotice(basePath: string, ledger: Ledger, clock: () => number, logger: Logger): (c: Context<CompanionEnv>) => Promise<void> {
  const route = '/api/checkout/sessions';
  const said = new SaidLately(MAX_STRAY_PREFIXES, STRAY_PREFIXES_WINDOW_MS);
  return async (c) => {
    const path = c.req.path;
    const at = path.indexOf(route);
    const rest = at < 0 ? '' : path.slice(at + route.length);
    if (at < 0 || (rest !== '' && !rest.startsWith('/'))) return;
    const prefix = path.slice(0, at);
    if (prefix === basePath) return;
    const plain = plainPath(prefix);
    // A path not written as a base path is (one key for them all) never named.
    const key = plain ? prefix : '\0';
    if (!said.open(key, clock())) return;
    if (!(await opened(ledger, rest.split('/')[1]))) {
      logger.debug('the checkout API was asked outside the base path for no session this companion opened: not said');
      return;
    }
    if (!said.take(key, clock())) return;
    const where = plain ? `${prefix}${route}/…` : 'another path';
    // More path after the base path (or after none): the endpoint names a path past the
    // companion's address — its script's, or its API's — which no basePath should follow.
    const after = prefix.startsWith(`${basePath}/`) ? prefix.slice(basePath.length) : undefined;
    if (plain && after !== undefined && (basePath !== '' || OWN_PATH.test(after))) {
      logger.error(
        `the checkout API was asked at ${where}: ${basePath ? `under this companion’s basePath ${basePath}` : 'this companion has no basePath'}, but with ${after} after it, so it answered 404 and <pay-form> cannot pay: ` +
          `<pay-form endpoint> must be the companion’s address, ending at ${basePath || 'its origin'} (not its script’s or its API’s)`,
      );
      return;
    }
    if (!basePath) {
      logger.error(
        `the checkout API was asked at ${where}, but this companion has no basePath and answered 404, so <pay-form> cannot pay: ` +
          `mounted in your server, set basePath to ${plain ? prefix : 'the path it is mounted at'}; behind a proxy (the bin has no basePath), have the proxy strip ${plain ? prefix : 'that path'}; ` +
          'else leave that path out of <pay-form endpoint>',
      );
      return;
    }
    logger.error(
      `the checkout API was asked at ${where}, outside this companion’s basePath ${basePath}, and answered 404, so <pay-form> cannot pay: ` +
        `${plain ? `set basePath to ${prefix || "''"} (where your server hands the companion its requests), or ` : ''}hand it the requests under ${basePath}`,
    );
  };
}

/** The companion's own paths a page may give as its address by mistake: its script's, its API's. */
const OWN_PATH = /^\/(widget\/[^/]+|api)$/;

/** Wrong paths said apart in an hour, at most; each said again the next hour. */
const MAX_STRAY_PREFIXES = 8;
const STRAY_PREFIXES_WINDOW_MS = 60 * 60_000;

/** Whether `id` names a session in the ledger. Only an id as the companion writes them is looked up. */
async function opened(ledger: Ledger, id: string | undefined): Promise<boolean> {
  if (!id || !/^[A-Za-z0-9_-]{1,100}$/.test(id)) return false;
  return (await ledger.getSession(id).catch(() => undefined)) !== undefined;
}

/** Named only as a base path is written: few digits, nothing a card number could hide in. */
function plainPath(path: string): boolean {
  return /^(\/[A-Za-z0-9._~-]+)*$/.test(path) && (path.match(/\d/g)?.length ?? 0) <= 6;
}

