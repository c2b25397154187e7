/**
 * The environment variables the sandbox reads, and what makes one silently wrong: a name
 * misspelt (`SANDBOX_PROJECT`), a value kept in quotes by a container's env file, a flag that
 * reads as neither on nor off. The bin checks its command line with it before the sandbox is
 * loaded.
 */
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
      const meant = nearestName(name, known) ?? known.find((candidate) => candidate.startsWith(`${name}_`));
      // A companion name misspelt is the companion's to say.
      return meant && read.includes(meant) ? [{ name, meant }] : [];
    });
}

/** A SANDBOX_* or PAYFORM_GATEWAY_* name, its prefix misspelt or not. */
function ours(name: string): boolean {
  const [first = '', second = ''] = name.split('_');
  return nearestName(first, ['SANDBOX']) !== undefined || (nearestName(first, ['PAYFORM']) !== undefined && nearestName(second, ['GATEWAY']) !== undefined);
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

