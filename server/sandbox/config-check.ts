/**
 * What createSandbox takes, checked before anything is built: a misspelt option, a project spelt
 * as the projects file spells it (`pos_id`), a `posId` that is no UUID, a public URL without its
 * scheme, a start time given as text — each was taken without a word and failed far from its
 * cause, or never. One TypeError names every wrong option by its path, with the fix, in the words
 * the bin uses: projects by the projects file's rules (projects-file.ts) under Project's names,
 * the public URL and allowed hosts by the command line's (command-line.ts, environment.ts).
 */
import * as z from 'zod';
import { nearestName } from '@payform/gateway';
import { describeIssues, fieldPath, issueFields, wireErrorMap } from '@payform/gateway/wire';
import { readPublicUrl } from './command-line.js';
import type { Project, SandboxConfig, SandboxTimings, WebhookSettings } from './config.js';
import { allowedHostsProblems } from './environment.js';
import { FaultSettings } from './faults.js';
import { EVERY_PROBLEM, LedgerEntry, ProjectEntry, TerminalEntry, ledgers, projectConsistency, repeated } from './projects-file.js';

const file = ProjectEntry.shape;

/** A ledger as balances.ts holds it (parseProjects writes the file's accounts and terminals so). */
const Account = z.strictObject({
  id: LedgerEntry.shape.id,
  name: LedgerEntry.shape.name,
  currency: LedgerEntry.shape.currency,
  live: z.boolean(),
  opening: z.number(),
});
const Terminal = Account.extend({ unavailable: TerminalEntry.shape.unavailable });

/** The file's ledger names that are other words here: no near name would lead to them. */
const LEDGER_FILE_NAMES: Readonly<Record<string, string>> = { opening_balance_minor: 'opening', receives_payments: 'live' };

const WholeMinor = z.number().int().min(0);

const ConfigProject = z
  .strictObject({
    posId: file.pos_id.optional(),
    apiKey: file.api_key.optional(),
    apiSecret: file.api_secret.optional(),
    endpointsKey: file.endpoints_key.optional(),
    name: file.name.optional(),
    currency: file.currency,
    currencies: file.currencies,
    subMerchants: file.sub_merchants,
    accounts: ledgers(Account, 'account'),
    terminals: ledgers(Terminal, 'terminal'),
    captureOverReservePercent: file.capture_over_reserve_percent,
    threeDSecure: file.three_d_secure,
    // Without the file's null for none, which is no MerchantSector.
    sector: file.sector.unwrap().unwrap().optional(),
    mcc: file.mcc,
    creditReferences: file.credit_references,
    widgetKey: file.widget_key,
    widgetOrigins: file.widget_origins,
    // Not in the file: settings only code gives.
    strict: z.boolean().optional(),
    amountLimitMinor: z.number().int().positive().optional(),
    fees: z.strictObject({ fixedMinor: WholeMinor, percentBasisPoints: WholeMinor.max(10_000) }).optional(),
  } satisfies Record<keyof Project, z.ZodType>)
  .check(z.superRefine(projectConsistency({ subMerchants: 'subMerchants', openingMinor: 'opening' }), EVERY_PROBLEM));

const Milliseconds = z.number().int().min(0);
const Duration = z.number().int().positive();

const Timings = z.strictObject({
  slowCardDelayMs: Milliseconds,
  challengeTimeoutMs: Duration,
  hostedLifespanSeconds: Duration,
  widgetTokenLifespanMs: Duration,
} satisfies Record<keyof SandboxTimings, z.ZodType>);

const Webhooks = z.strictObject({
  retryDelaysMs: z.array(Milliseconds),
  timeoutMs: Duration,
  reorderHoldMs: Milliseconds,
} satisfies Record<keyof WebhookSettings, z.ZodType>);

const aFunction = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', { error: 'must be a function' });

/** Built once, at load: every createSandbox of every test suite is checked with it. */
const SandboxOptions = z.strictObject({
  projects: z.array(ConfigProject).optional(),
  // Its rules are the bin's --public-url's (readPublicUrl), said in its words.
  publicUrl: z.string().optional(),
  allowedHosts: z.array(z.string()).optional(),
  timings: Timings.partial().optional(),
  webhooks: Webhooks.partial().optional(),
  startTime: z.date({ error: (issue) => `must be a Date, such as new Date('2026-03-02T10:00:00Z'), not ${kindOf(issue.input)}` }).optional(),
  frozenClock: z.boolean().optional(),
  bodyLimitBytes: z.number().int().positive().optional(),
  faultSeed: FaultSettings.shape.seed,
  fetch: aFunction.optional(),
  log: aFunction.optional(),
} satisfies Record<keyof SandboxConfig, z.ZodType>);

/**
 * What the check reads otherwise than it was given: projects as the file reads its own (ids in
 * lower case, widget origins without a path), the public URL as the bin does (no trailing slash).
 */
export interface CheckedConfig {
  readonly projects: readonly Partial<Project>[] | undefined;
  readonly publicUrl: string | undefined;
}

/** `config` checked whole: a TypeError names each wrong option and its fix. */
export function checkedConfig(config: SandboxConfig): CheckedConfig {
  // Not zod's compiled parser (`compiled`): read once a sandbox, its compiling would cost more than it saves.
  const parsed = SandboxOptions.safeParse(config, { error: wireErrorMap });
  const problems = parsed.success ? [] : problemsOf(parsed.error);
  // Said in the bin's words, once the value is text (the schema says when it is not).
  const { publicUrl, allowedHosts }: { publicUrl?: unknown; allowedHosts?: unknown } = typeof config === 'object' && config !== null ? config : {};
  const url = typeof publicUrl === 'string' ? readPublicUrl(publicUrl, 'publicUrl') : undefined;
  if (url?.problem) problems.push(url.problem);
  if (Array.isArray(allowedHosts) && allowedHosts.every((host) => typeof host === 'string')) problems.push(...allowedHostsProblems(allowedHosts, 'allowedHosts'));
  if (!parsed.success || problems.length > 0) throw invalidConfig(problems);
  return { projects: parsed.data.projects, publicUrl: url?.url };
}

/**
 * Across the projects as completed: each pos id, API key and widget key opens one project. A
 * project that gives none took the test project's, so it clashes with the test project's.
 */
export function checkDistinctProjects(projects: readonly Project[], given: readonly Partial<Project>[]): void {
  const problems = (['posId', 'apiKey', 'widgetKey'] as const).flatMap((key) =>
    repeated(projects.map((project) => project[key])).map((index) => {
      // A widget key not given is made from the pos id, whose clash is said already.
      const taken = key !== 'widgetKey' && given[index]?.[key] === undefined ? ' (none given: it took the test project’s)' : '';
      return `projects[${index}].${key}: is already another project’s${taken}; give each project its own`;
    }),
  );
  if (problems.length > 0) throw invalidConfig(problems);
}

function invalidConfig(problems: readonly string[]): TypeError {
  return new TypeError(`Invalid sandbox config: ${problems.join('; ')}`);
}

/** One line per problem; an unknown option with the name meant. */
function problemsOf(error: z.ZodError): string[] {
  let fileSpelling = false;
  const problems = error.issues.flatMap((issue) => {
    if (issue.code !== 'unrecognized_keys') return [describeIssues(issueFields(issue))];
    return issue.keys.map((key) => {
      const path = fieldPath([...issue.path, key]);
      const known = optionsAt(issue.path);
      const meant = LEDGER_FILE_NAMES[key] ?? nearestName(key, known);
      if (!meant) return `${path} is not an option`;
      // `pos_id` within a project: the projects file's name, written in camelCase here.
      if (issue.path[0] === 'projects' && key.includes('_')) {
        fileSpelling = true;
        return `${path} is the projects file's name: write ${meant}`;
      }
      return `${path} is not an option (did you mean ${meant}?)`;
    });
  });
  if (fileSpelling) problems.push("createSandbox's projects take Project's camelCase names; parseProjects(json) reads a projects file's JSON into them");
  return problems;
}

/** The option names of the object at `path` (array indexes and optional wrappers passed through). */
function optionsAt(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = SandboxOptions;
  for (const key of path) {
    schema = inner(schema);
    if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodObject && typeof key === 'string') schema = schema.shape[key] as z.ZodType;
  }
  schema = inner(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function inner(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? inner(schema.unwrap() as z.ZodType) : schema;
}

/** What a wrong value is, without quoting it: a secret may have landed in the wrong option. */
function kindOf(value: unknown): string {
  if (value instanceof Date) return 'an invalid Date';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
