/**
 * The companion's variables carry the `PAYFORM_` prefix, so they never collide with a shop's own
 * (`DATABASE_URL`, `HOST`…); `PORT` and `NODE_ENV` stay as hosting platforms set them. The
 * unprefixed names of 0.2 are still read when the prefixed one is unset, each with one
 * deprecation notice naming its replacement — but a common one (`DATABASE_URL`, `HOST`,
 * `PUBLIC_URL`…) only beside a name that only payform used (`GATEWAY_POS_ID`…): alone, it is the
 * shop's own (a companion that took the shop's database for its ledger would write its tables
 * there), left alone with one line naming it.
 */
import { nearestName } from '@payform/gateway';
import { eitherOf, namesSharingWords } from './near-names.js';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * What `readCompanionConfig` may be given: `process.env`, or settings written in code, where a
 * port or a TTL is naturally a number and a flag a boolean (each read as its string form).
 */
export type EnvironmentInput = Readonly<Record<string, string | number | bigint | boolean | null | undefined>>;

/** Every prefixed variable with the 0.2 name it replaces. */
export const RENAMED_VARIABLES: Readonly<Record<string, string>> = {
  PAYFORM_HOST: 'HOST',
  PAYFORM_PUBLIC_URL: 'PUBLIC_URL',
  PAYFORM_GATEWAY_BASE_URL: 'GATEWAY_BASE_URL',
  PAYFORM_GATEWAY_POS_ID: 'GATEWAY_POS_ID',
  PAYFORM_GATEWAY_API_KEY: 'GATEWAY_API_KEY',
  PAYFORM_GATEWAY_API_SECRET: 'GATEWAY_API_SECRET',
  PAYFORM_GATEWAY_ENDPOINTS_KEY: 'GATEWAY_ENDPOINTS_KEY',
  PAYFORM_DATABASE_URL: 'DATABASE_URL',
  PAYFORM_ADMIN_TOKEN: 'ADMIN_TOKEN',
  PAYFORM_ALLOWED_ORIGINS: 'ALLOWED_ORIGINS',
  PAYFORM_SANDBOX_ORIGIN: 'SANDBOX_ORIGIN',
  PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: 'CAPTURE_OVER_RESERVE_PERCENT',
  PAYFORM_SESSION_TTL_SECONDS: 'SESSION_TTL_SECONDS',
  PAYFORM_TRUST_PROXY: 'TRUST_PROXY',
  PAYFORM_LOG_LEVEL: 'LOG_LEVEL',
};

/**
 * The 0.2 names no one but payform used: one of them set says the environment is a 0.2
 * companion's. Not GATEWAY_BASE_URL, GATEWAY_API_KEY or GATEWAY_API_SECRET: another payment
 * provider's integration may set those, and would make the shop's DATABASE_URL read again.
 */
const PAYFORM_ONLY_NAMES = new Set(['GATEWAY_POS_ID', 'GATEWAY_ENDPOINTS_KEY', 'SANDBOX_ORIGIN', 'CAPTURE_OVER_RESERVE_PERCENT', 'SESSION_TTL_SECONDS']);

/**
 * Variables set but blank that are refused rather than read as unset, because their default is
 * worse than not starting: PAYFORM_DATABASE_URL's default is a SQLite file of this instance's
 * own, so in a PostgreSQL fleet a secret that failed to inject would give one instance a private
 * ledger (its payments seen by no other); without PAYFORM_GATEWAY_WIDGET_KEY card data is relayed
 * through this server, which puts it in PCI DSS scope (SAQ D rather than A-EP); without
 * PAYFORM_ACCEPTED_BRANDS every card scheme is taken by a shop that meant to limit them, and
 * without PAYFORM_CURRENCIES every currency is opened, without PAYFORM_MERCHANT_SECTOR a
 * microfinance shop's sessions open without the details its every payment needs, and without
 * PAYFORM_PERSONAL_DATA_DAYS customers' details are kept for ever, past what the shop's privacy
 * notice says. Blank is unset
 * for the rest: their defaults are refused in production or are the safer choice (no /metrics,
 * no back office, this machine only).
 */
const NOT_BLANK = ['PAYFORM_DATABASE_URL', 'PAYFORM_GATEWAY_WIDGET_KEY', 'PAYFORM_ACCEPTED_BRANDS', 'PAYFORM_CURRENCIES', 'PAYFORM_MERCHANT_SECTOR', 'PAYFORM_PERSONAL_DATA_DAYS'] as const;
export type NotBlankVariable = (typeof NOT_BLANK)[number];

export interface CurrentEnvironment {
  /** The variables under their current names, blanks as unset. */
  readonly env: Env;
  /** Variables of NOT_BLANK set but empty or blank, as they were set (`name`, their 0.2 name where that is read): readCompanionConfig refuses them. */
  readonly blank: readonly { readonly name: string; readonly meant: NotBlankVariable }[];
  /** For a value read from a 0.2 name: current name → the name it was read from (errors name what was set). */
  readonly readFrom: Readonly<Record<string, string>>;
  /** One line per 0.2 name in use (those left alone as the shop's own are `leftAlone`). */
  readonly deprecations: readonly string[];
  /** The 0.2 names set but left alone as the shop's own, each with the variable read instead (refusals name them). */
  readonly leftAlone: readonly UnreadVariable[];
}

/** A variable set that the companion does not read, and the one it reads in its place. */
export interface UnreadVariable {
  readonly name: string;
  readonly meant: string;
}

/** What is said of 0.2 names left alone, at start and in a refusal they may be the reason for. */
export function leftAloneNotice(leftAlone: readonly UnreadVariable[]): string {
  const several = leftAlone.length > 1;
  return (
    `${leftAlone.map(({ name }) => name).join(', ')} ${several ? 'are' : 'is'} set and left alone, as the shop's own: ` +
    `the companion reads ${leftAlone.map(({ meant }) => meant).join(', ')} (set ${several ? 'those' : 'it'} if meant for payform)`
  );
}

/** A variable's value, blank or null as unset; a number or boolean given in code as its string form. */
function value(raw: unknown): string | undefined {
  const text = typeof raw === 'number' || typeof raw === 'bigint' || typeof raw === 'boolean' ? String(raw) : raw;
  return typeof text === 'string' && text.trim() ? text.trim() : undefined;
}

/** A value a variable may be given as: a string, a number or a boolean (null and undefined: unset). */
export const isVariableValue = (raw: unknown) => raw === undefined || raw === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof raw);

/** What a value is, for a refusal that must not quote it (it may be a secret). */
export const kindOf = (raw: unknown) => (Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'an object' : `a ${typeof raw}`);

export function currentEnvironment(env: EnvironmentInput): CurrentEnvironment {
  // Given in code, an object or a function has no string form to read: refused like any wrong
  // value (String() would turn it into "[object Object]", read as a token or a path).
  const unreadable = Object.entries(env as Readonly<Record<string, unknown>>).filter(([, raw]) => !isVariableValue(raw));
  if (unreadable.length > 0) {
    throw new TypeError(`Invalid environment: ${unreadable.map(([name, raw]) => `${name}: must be a string, a number or a boolean, not ${kindOf(raw)}`).join('; ')}`);
  }
  const current: Record<string, string | undefined> = Object.fromEntries(Object.entries(env).map(([name, raw]) => [name, value(raw)]));
  const readFrom: Record<string, string> = {};
  const deprecations: string[] = [];
  const of02 = [...PAYFORM_ONLY_NAMES].some((legacy) => current[legacy] !== undefined);
  // A 0.2 name is read in a 0.2 environment, or when no other program could mean it.
  const readsLegacy = (legacy: string) => of02 || PAYFORM_ONLY_NAMES.has(legacy);
  const leftAlone: UnreadVariable[] = [];
  for (const [name, legacy] of Object.entries(RENAMED_VARIABLES)) {
    if (current[name] !== undefined || current[legacy] === undefined) continue;
    if (!readsLegacy(legacy)) {
      leftAlone.push({ name: legacy, meant: name });
      continue;
    }
    current[name] = current[legacy];
    readFrom[name] = legacy;
    deprecations.push(`${legacy} is deprecated: name it ${name} (the unprefixed names of 0.2 will stop being read)`);
  }
  // Where the current name is not set at all, its 0.2 name is the one that would have been read.
  const isBlank = (raw: unknown) => typeof raw === 'string' && raw.trim() === '';
  const blank = NOT_BLANK.flatMap((name) => {
    if (isBlank(env[name])) return [{ name, meant: name }];
    const legacy = RENAMED_VARIABLES[name];
    const legacyRead = legacy !== undefined && readsLegacy(legacy) && (env[name] === undefined || env[name] === null);
    return legacyRead && isBlank(env[legacy]) ? [{ name: legacy, meant: name }] : [];
  });
  return { env: current, readFrom, deprecations, blank, leftAlone };
}

// Names people reach for that the companion spells otherwise.
const GUESSES: Readonly<Record<string, string>> = {
  PAYFORM_DB_URL: 'PAYFORM_DATABASE_URL',
  PAYFORM_DB: 'PAYFORM_DATABASE_URL',
  PAYFORM_WEBHOOK_SECRET: 'PAYFORM_GATEWAY_API_SECRET',
  PAYFORM_GATEWAY_SECRET: 'PAYFORM_GATEWAY_API_SECRET',
  PAYFORM_API_SECRET: 'PAYFORM_GATEWAY_API_SECRET',
  PAYFORM_PORT: 'PORT',
  PAYFORM_SANDBOX_URL: 'PAYFORM_SANDBOX_ORIGIN',
};

/**
 * The sandbox's variables (payform-sandbox; `npm start` gives both programs one environment).
 * Set with the companion's prefix (`PAYFORM_SANDBOX_PORT`), it is theirs that was meant, as the
 * sandbox says too: not PORT. Kept in step with the sandbox's list by environment.test.ts.
 */
export const SANDBOX_VARIABLES: readonly string[] = ['SANDBOX_PORT', 'SANDBOX_HOST', 'SANDBOX_PROJECTS', 'SANDBOX_PUBLIC_URL', 'SANDBOX_STRICT', 'SANDBOX_ALLOWED_HOSTS'];

/**
 * The other payform programs' variables: `npm start`, CI and a developer's shell give them the
 * companion's environment, where they are read, just not by the companion. Kept in step with
 * what those programs read by environment.test.ts.
 */
export const OTHER_PROGRAMS_VARIABLES: readonly string[] = [
  'PAYFORM_DEMO_CARD_ENTRY', // the demo shop (demo/stack.ts)
  'PAYFORM_E2E_WORKERS', 'PAYFORM_E2E_STACKS', // the journeys (e2e/)
  'PAYFORM_LOAD_SECONDS', 'PAYFORM_AT_REST_DIR', // the resilience suites (e2e/resilience, .ci/test)
  'PAYFORM_PACKAGES_PACKED', 'PAYFORM_PACKAGES_KEEP', 'PAYFORM_PACKAGES_REUSE', // the packages suite (e2e/packages)
  'PAYFORM_PREBUILDS', // .ci/run
];

/** The demo names its own misspelt `PAYFORM_DEMO…` variables (demo/stack.ts): under `npm start`, said once. */
const judgedByTheDemo = (name: string) => name.toUpperCase().startsWith('PAYFORM_DEMO');

/**
 * A variable set under the `PAYFORM_` prefix (in any case) that no payform program reads, with
 * the companion's variables it reads like, closest first: misspelt (`PAYFORM_ADMINTOKEN`), cut
 * short (`PAYFORM_SESSION_TTL`), a name people guess (`PAYFORM_DB_URL`), or one with their words
 * (`PAYFORM_WIDGET_KEY`: PAYFORM_GATEWAY_WIDGET_KEY). None is alike when none is close; the
 * variable is still named, as it is otherwise ignored without a word (a widget key so set leaves
 * card data relayed through this server).
 */
export interface StrayVariable {
  readonly name: string;
  readonly alike: readonly string[];
}

export function strayVariables(env: Env, known: readonly string[]): StrayVariable[] {
  return Object.keys(env)
    .filter((name) => !known.includes(name) && !OTHER_PROGRAMS_VARIABLES.includes(name) && !judgedByTheDemo(name))
    .flatMap((name) => {
      const [prefix = ''] = name.split('_');
      // PAYFROM_ADMIN_TOKEN too, when it reads like one: a typo in the prefix hides a variable as
      // well as one after it. Only then: other tools' names may begin near it.
      const prefixed = prefix.toUpperCase() === 'PAYFORM';
      if (!prefixed && nearestName(prefix, ['PAYFORM']) === undefined) {
        const meant = variableOfOptionName(name, known);
        return meant ? [{ name, alike: [meant] }] : [];
      }
      // A name people guess says what it was meant for: before any name it merely looks like (PAYFORM_PORT is not PAYFORM_HOST).
      const sandboxes = SANDBOX_VARIABLES.find((variable) => `PAYFORM_${variable}` === name.toUpperCase());
      const guessed = GUESSES[name.toUpperCase()] ?? sandboxes ?? nearestName(name, known, { cutShort: true });
      const alike = guessed ? [guessed] : namesSharingWords(name, known, { ignored: [prefix.toUpperCase()] });
      return prefixed || alike.length > 0 ? [{ name, alike }] : [];
    });
}

/** What is said at start of a variable no payform program reads. */
export function strayNotice({ name, alike }: StrayVariable): string {
  const hint = alike.length > 0 ? `did you mean ${eitherOf(alike)}?` : 'no payform program reads it (`payform-companion --help` lists the variables)';
  return `${name} is not a variable of the companion and is ignored: ${hint}`;
}

/**
 * The variable a setting written as an option names (`publicUrl`, `adminToken`, `apiKey`):
 * settings given in code sit beside composeCompanion's camelCase options, and would otherwise be
 * ignored — a ledger URL so written leaves the companion on its default SQLite file. Only an
 * option's shape (camelCase or one lower-case word) that spells a variable exactly: a process
 * environment's snake_case names (`http_proxy`, `log_level`, `node_env`) are other tools', and
 * its upper-case ones the shop's own.
 */
function variableOfOptionName(name: string, known: readonly string[]): string | undefined {
  if (!/^[a-z][a-zA-Z0-9]*$/.test(name)) return undefined;
  const spelt = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  // The gateway client's options (`apiKey`, `posId`) are its credentials' variables.
  return [spelt, `PAYFORM_${spelt}`, `PAYFORM_GATEWAY_${spelt}`].find((candidate) => known.includes(candidate));
}
