/**
 * The environment variables the sandbox reads, and what makes one silently wrong: a name
 * misspelt (`SANDBOX_PROJECT`), a value kept in quotes by a container's env file, a flag that
 * reads as neither on nor off, an allowed host with a scheme or a port. The bin checks its
 * command line with it before the sandbox is loaded.
 */
import { isIP } from 'node:net';
import { isQuotedSetting, nearestName, quotedSettingProblem } from '@payform/gateway';

type Env = Readonly<Record<string, string | undefined>>;

/** Every SANDBOX_* variable the sandbox reads. */
export const SANDBOX_VARIABLES = ['SANDBOX_PORT', 'SANDBOX_HOST', 'SANDBOX_PROJECTS', 'SANDBOX_PUBLIC_URL', 'SANDBOX_STRICT', 'SANDBOX_ALLOWED_HOSTS'] as const;

/** The test project's credentials, which the sandbox reads under the companion's names. */
export const CREDENTIAL_VARIABLES = ['PAYFORM_GATEWAY_POS_ID', 'PAYFORM_GATEWAY_API_KEY', 'PAYFORM_GATEWAY_API_SECRET', 'PAYFORM_GATEWAY_ENDPOINTS_KEY'] as const;

/** The companion's other PAYFORM_GATEWAY_* names: often in the same env file, and no misspelling. */
const COMPANION_GATEWAY_VARIABLES = ['PAYFORM_GATEWAY_BASE_URL', 'PAYFORM_GATEWAY_WIDGET_KEY', 'PAYFORM_GATEWAY_WIDGET_URL'];

/** The 0.2 names of the credentials, still read. */
export const LEGACY_CREDENTIAL_VARIABLES = CREDENTIAL_VARIABLES.map((name) => name.replace(/^PAYFORM_/, ''));

/**
 * A SANDBOX_* or PAYFORM_GATEWAY_* variable that is none the sandbox reads (nor one of the
 * companion's) but reads like one of them — misspelt, cut short or run together
 * (`SANDBOX_PROJECT`, `SANDBOX_PUBLICURL`, `SANBOX_PORT`) — with the name it was likely meant to
 * be. Other names with those prefixes are left alone: other tools may share them.
 */
export function misspeltVariables(env: Env): { readonly name: string; readonly meant: string }[] {
  const read: readonly string[] = [...SANDBOX_VARIABLES, ...CREDENTIAL_VARIABLES];
  const known = [...read, ...COMPANION_GATEWAY_VARIABLES];
  return Object.keys(env)
    .filter((name) => env[name] !== undefined && !known.includes(name) && ours(name))
    .flatMap((name) => {
      const meant = nearestName(name, known, { cutShort: true }) ?? (companionPrefixed(name) ? nearestName(name.replace(/^[^_]*_/, ''), SANDBOX_VARIABLES, { cutShort: true }) : undefined);
      // A companion name misspelt is the companion's to say.
      return meant && read.includes(meant) ? [{ name, meant }] : [];
    });
}

/** A SANDBOX_* or PAYFORM_GATEWAY_* name, its prefix misspelt or not; or a sandbox name given the companion's prefix. */
function ours(name: string): boolean {
  const [first = '', second = ''] = name.split('_');
  return nearestName(first, ['SANDBOX']) !== undefined || (nearestName(first, ['PAYFORM']) !== undefined && nearestName(second, ['GATEWAY']) !== undefined) || companionPrefixed(name);
}

/** `PAYFORM_SANDBOX_PORT`: the companion's variables carry PAYFORM_, the sandbox's do not. */
function companionPrefixed(name: string): boolean {
  const [first = '', second = ''] = name.split('_');
  return nearestName(first, ['PAYFORM']) !== undefined && nearestName(second, ['SANDBOX']) !== undefined;
}

/** The variables the sandbox reads that are set with their value in matching quotes (others' are theirs to judge). */
export function quotedVariables(env: Env): string[] {
  const read: readonly string[] = [...SANDBOX_VARIABLES, ...CREDENTIAL_VARIABLES, ...LEGACY_CREDENTIAL_VARIABLES];
  return read.filter((name) => isQuotedSetting(env[name] ?? ''));
}

/** What is wrong with SANDBOX_STRICT's value; undefined when it reads as on or off. */
export function strictSettingProblem(env: Env): string | undefined {
  const value = env.SANDBOX_STRICT?.trim() ?? '';
  if (/^(1|true|0|false)?$/i.test(value)) return undefined;
  if (isQuotedSetting(value)) return quotedSettingProblem('SANDBOX_STRICT');
  return `SANDBOX_STRICT must be 1 or true (strict), or 0, false or empty (tolerant), not ${JSON.stringify(value)}`;
}

/** SANDBOX_ALLOWED_HOSTS's entries: comma-separated, blanks left out. */
export function allowedHostsSetting(env: Env): string[] {
  return (env.SANDBOX_ALLOWED_HOSTS ?? '').split(',').map((host) => host.trim()).filter(Boolean);
}

/**
 * What is wrong with allowed hosts given as `from` (SANDBOX_ALLOWED_HOSTS, or createSandbox's
 * allowedHosts): the control plane compares them with a request's host name, so an entry with a
 * scheme or a port never matches one, and every command would be refused.
 */
export function allowedHostsProblems(hosts: readonly string[], from: string): string[] {
  return hosts
    .filter((entry) => !isAddressOrHostName(entry))
    .map((entry) => {
      const name = URL.canParse(entry) && entry.includes('://') ? new URL(entry).hostname : URL.canParse(`http://${entry}`) ? new URL(`http://${entry}`).hostname : undefined;
      return `${from} takes host names without a scheme or port, as requests name them: "${entry}" would never match one${name ? `; write ${name}` : ''}`;
    });
}

/** An IP address or a host name: no scheme, port or brackets. Underscores too, which container networks' service names may have. */
export function isAddressOrHostName(value: string): boolean {
  return isIP(value) !== 0 || /^[a-z\d_]([a-z\d_-]*[a-z\d_])?(\.[a-z\d_]([a-z\d_-]*[a-z\d_])?)*\.?$/i.test(value);
}
