/**
 * A setting kept in quotes: `docker --env-file` and `kubectl … --from-env-file` keep a value's
 * quotes as part of it, so a URL, a token or a secret is wrong by two characters. The companion
 * and the sandbox both refuse one, in the same words.
 */

/** A value in matching quotes, blanks around them aside. */
export function isQuotedSetting(value: string): boolean {
  return /^(["']).*\1$/s.test(value.trim());
}

export function quotedSettingProblem(name: string): string {
  return `${name} is wrapped in quotes, which an env file for containers (docker --env-file, kubectl) keeps as part of the value: remove them`;
}
