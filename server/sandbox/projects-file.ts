/**
 * Projects from a file (`payform-sandbox --projects projects.json`, or SANDBOX_PROJECTS), so the
 * sandbox mirrors a merchant's real projects: credentials, currencies, sub-merchants, accounts and
 * terminals, the over-capture allowance and the 3-D Secure policy. Fields are spelt as GET
 * /_sandbox shows them; what a project leaves out is the test project's (config.ts). The file is
 * checked whole before the sandbox starts, and one error names every wrong entry.
 * docs/sandbox.md has an example; docs/sandbox-projects.example.json is one to copy.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { amountsWrittenAsDecimals, describeIssues, headerCredential, parseWire, repeatedKeys, Currency, Uuid, requiredText } from '@payform/gateway/wire';
import type { FieldIssue, MinorUnitFields } from '@payform/gateway/wire';
import type { ProjectCredentials } from '@payform/gateway/testing';
import { maskCardData } from '@payform/gateway';
import type { Ledger } from './balances.js';
import type { Project } from './config.js';
import { majorUnitsRefusal, minorAmountRefusal } from './state/amounts.js';

/**
 * The checks across fields run even when a field is wrong, so that one error names every problem:
 * they read the input as it came, trusting none of its types.
 */
export const EVERY_PROBLEM = { when: () => true };

/**
 * The names a project's checks read that are spelt otherwise in the file than in createSandbox's
 * projects (config-check.ts), so that both are checked by the same rules.
 */
export interface ProjectNames {
  readonly subMerchants: string;
  /** A ledger's opening balance in minor units. */
  readonly openingMinor: string;
  /** 0.2's opening balance in major units, refused naming openingMinor: the file's alone. */
  readonly openingMajor?: string;
}

const FILE_NAMES: ProjectNames = { subMerchants: 'sub_merchants', openingMinor: 'opening_balance_minor', openingMajor: 'opening_balance' };

export const LedgerEntry = z.strictObject({
  id: Uuid,
  name: requiredText(128),
  currency: Currency,
  /** In minor units, as every amount payform takes: 1250050 for 12500.50 UAH. */
  opening_balance_minor: z.number().default(0),
  /** 0.2's major units: refused, naming opening_balance_minor (projectConsistency). */
  opening_balance: z.unknown().optional(),
  /** Whether the project's successful payments in its currency move this balance. */
  receives_payments: z.boolean().default(true),
});

export const TerminalEntry = LedgerEntry.extend({
  /** A terminal whose balance cannot be read: listed in failed_terminals with this message. */
  unavailable: requiredText(256).optional(),
});

/**
 * A credential as a request can send it: what a header carries (`headerCredential`, the client's
 * own rule: printable ASCII, nothing around it), and since X-API-AUTH is `CPAY <API key>:<API
 * secret>`, no space or colon in the key and no space in the secret. Refused rather than printed
 * for the companion to fail with.
 */
const credential = (inside: RegExp | undefined, holds: string) =>
  headerCredential()
    .max(256, { error: 'must be at most 256 characters' })
    .check(
      z.superRefine((value, ctx) => {
        // Whitespace around it is said already.
        if (value.trim() === value && inside?.test(value)) ctx.addIssue({ code: 'custom', input: value, message: `must not hold ${holds}: requests send it in X-API-AUTH: CPAY <API key>:<API secret>` });
      }),
    );

/** What opens a project: its id and the three values its requests carry. */
const CREDENTIALS = {
  pos_id: Uuid,
  api_key: credential(/[\s:]/, 'whitespace or a colon'),
  api_secret: credential(/\s/, 'whitespace'),
  endpoints_key: credential(undefined, ''),
};

/**
 * The test project's credentials as the environment gives them, held to a file's rules: a key
 * with a colon, say, would be printed for a companion whose every request the sandbox then
 * refuses 401. Each problem names its variable; only the project's id is quoted back.
 */
export function credentialProblems(credentials: ProjectCredentials): string[] {
  const given = { pos_id: credentials.posId, api_key: credentials.apiKey, api_secret: credentials.apiSecret, endpoints_key: credentials.endpointsKey };
  const parsed = parseWire(z.strictObject(CREDENTIALS), given);
  if (parsed.success) return [];
  // Each is read from the companion's name of it: pos_id from PAYFORM_GATEWAY_POS_ID.
  return parsed.issues.map(({ field, reason }) =>
    field === 'pos_id' ? `PAYFORM_GATEWAY_POS_ID ${reason} (the project's id), not ${JSON.stringify(maskCardData(given.pos_id))}` : `PAYFORM_GATEWAY_${field.toUpperCase()} ${reason}`,
  );
}

/** A project as the file spells it; createSandbox's projects are held to the same rules under Project's names (config-check.ts). */
export const ProjectEntry = z
  .strictObject({
    ...CREDENTIALS,
    name: requiredText(128),
    /** Currency of the project's settlement account and first terminals; default the first of `currencies`. */
    currency: Currency.optional(),
    currencies: z.array(Currency).min(1, { error: 'must name at least one currency' }).optional(),
    sub_merchants: z.array(Uuid).optional(),
    accounts: ledgers(LedgerEntry, 'account'),
    terminals: ledgers(TerminalEntry, 'terminal'),
    capture_over_reserve_percent: z.number().min(0).max(1000).optional(),
    three_d_secure: z.enum(['card', 'always', 'never']).optional(),
    sector: z.enum(['microfinance', 'igaming']).nullable().optional(),
    mcc: z.string().regex(/^\d{4}$/, { error: 'must be four digits' }).optional(),
    credit_references: z.boolean().optional(),
    /** Refuse what the live gateway would tolerate (unknown fields, numeric strings…); SANDBOX_STRICT sets the first project's. */
    strict: z.boolean().optional(),
    /** The card tokenizer's X-Widget-Id and signing key. */
    widget_key: credential(undefined, '').optional(),
    /** Origins whose pages may call the card tokenizer; default loopback ones only. */
    widget_origins: z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)).optional(),
  })
  .check(z.superRefine(projectConsistency(FILE_NAMES), EVERY_PROBLEM));

const ProjectsFile = z
  .strictObject({ projects: z.array(ProjectEntry).min(1, { error: 'must list at least one project' }) })
  .check(z.superRefine(distinctProjects, EVERY_PROBLEM));

/** The file's amounts in minor units (`opening_balance_minor`), wherever they stand. */
const MINOR_UNITS: MinorUnitFields = { key: /_minor$/, at: () => true };

/** The file could not be used; `issues` names every wrong entry. */
export class ProjectsFileError extends Error {
  override readonly name = 'ProjectsFileError';
  readonly issues: readonly FieldIssue[];

  constructor(source: string, issues: readonly FieldIssue[]) {
    super(`${source} is not a valid projects file:\n${issues.map((issue) => `  ${describeIssues([issue])}`).join('\n')}`);
    this.issues = issues;
  }
}

/** Reads and checks a projects file; throws ProjectsFileError naming every problem. */
export async function readProjectsFile(path: string): Promise<Partial<Project>[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ProjectsFileError(path, [{ field: '', reason: `cannot be read (${typeof code === 'string' ? code : String(error)})` }]);
  }
  // A byte order mark, which Windows editors write, is no part of the JSON.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProjectsFileError(path, [{ field: '', reason: `is not JSON: ${(error as Error).message}` }]);
  }
  const duplicates = repeatedKeys(text).map((field) => ({ field, reason: 'appears twice in its object, and JSON keeps only the last: remove one' }));
  // `"opening_balance_minor": 1500.00` reads as 1500: 15.00 UAH where 1500 UAH was meant.
  return projectsOf(json, path, [...duplicates, ...amountsWrittenAsDecimals(text, MINOR_UNITS)]);
}

/** The projects of a parsed file, as SandboxConfig.projects takes them. */
export function parseProjects(json: unknown, source = 'the projects file'): Partial<Project>[] {
  return projectsOf(json, source, []);
}

/** The projects, or every problem at once: the file's text's (`issues`) and its entries'. */
function projectsOf(json: unknown, source: string, issues: readonly FieldIssue[]): Partial<Project>[] {
  const parsed = parseWire(ProjectsFile, json);
  if (!parsed.success || issues.length > 0) throw new ProjectsFileError(source, [...issues, ...(parsed.success ? [] : parsed.issues)]);
  return parsed.data.projects.map(toProject);
}

function toProject(entry: z.output<typeof ProjectEntry>): Partial<Project> {
  const currency = entry.currency ?? entry.currencies?.[0];
  const project: Partial<Project> = {
    posId: entry.pos_id,
    apiKey: entry.api_key,
    apiSecret: entry.api_secret,
    endpointsKey: entry.endpoints_key,
    name: entry.name,
    ...(currency ? { currency } : {}),
    ...(entry.currencies ? { currencies: entry.currencies } : {}),
    ...(entry.sub_merchants ? { subMerchants: entry.sub_merchants } : {}),
    ...(entry.accounts ? { accounts: entry.accounts.map(toLedger) } : {}),
    ...(entry.terminals ? { terminals: entry.terminals.map(toLedger) } : {}),
    ...(entry.capture_over_reserve_percent === undefined ? {} : { captureOverReservePercent: entry.capture_over_reserve_percent }),
    ...(entry.three_d_secure ? { threeDSecure: entry.three_d_secure } : {}),
    ...(entry.sector === undefined ? {} : { sector: entry.sector ?? undefined }),
    ...(entry.mcc ? { mcc: entry.mcc } : {}),
    ...(entry.credit_references === undefined ? {} : { creditReferences: entry.credit_references }),
    ...(entry.strict === undefined ? {} : { strict: entry.strict }),
    ...(entry.widget_key ? { widgetKey: entry.widget_key } : {}),
    ...(entry.widget_origins ? { widgetOrigins: entry.widget_origins } : {}),
  };
  return project;
}

function toLedger(entry: z.output<typeof TerminalEntry> | z.output<typeof LedgerEntry>): Ledger {
  return {
    id: entry.id,
    name: entry.name,
    currency: entry.currency,
    live: entry.receives_payments,
    opening: entry.opening_balance_minor,
    ...('unavailable' in entry && entry.unavailable ? { unavailable: entry.unavailable } : {}),
  };
}

type Issue = (path: (string | number)[], message: string) => void;
const issuesOf = (ctx: z.RefinementCtx): Issue => (path, message) => ctx.addIssue({ code: 'custom', path, message });
const fields = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A project's accounts or terminals: when listed, at least one. */
export function ledgers<T extends z.ZodType>(entry: T, kind: 'account' | 'terminal') {
  return z.array(entry).min(1, { error: `must name at least one ${kind}` }).optional();
}

/** Within a project: the balance currency among the accepted ones; nothing listed twice; balances in their currency. */
export function projectConsistency(names: ProjectNames): (input: unknown, ctx: z.RefinementCtx) => void {
  return (input, ctx) => {
    const issue = issuesOf(ctx);
    const project = fields(input);
    const currencies = items(project.currencies);
    if (typeof project.currency === 'string' && Array.isArray(project.currencies) && !currencies.includes(project.currency)) {
      issue(['currency'], 'must be one of the project’s currencies');
    }
    repeated(currencies).forEach((index) => issue(['currencies', index], 'appears twice'));
    repeated(items(project[names.subMerchants])).forEach((index) => issue([names.subMerchants, index], 'appears twice'));
    for (const kind of ['accounts', 'terminals'] as const) {
      const entries = items(project[kind]).map(fields);
      repeated(entries.map((ledger) => ledger.id)).forEach((index) => issue([kind, index, 'id'], 'appears twice'));
      entries.forEach((ledger, index) => {
        const code = typeof ledger.currency === 'string' ? ledger.currency : '';
        const major = names.openingMajor === undefined ? undefined : ledger[names.openingMajor];
        if (names.openingMajor && major !== undefined) issue([kind, index, names.openingMajor], majorUnitsRefusal(names.openingMinor, major, code));
        const balance = ledger[names.openingMinor];
        // A currency that is not one is its own issue: its amounts are judged once it is.
        const refusal = typeof balance === 'number' && Currency.safeParse(code).success ? minorAmountRefusal(balance, code, 'any') : undefined;
        if (refusal) issue([kind, index, names.openingMinor], refusal);
      });
    }
  };
}

/** Across projects: each pos_id, API key and widget key belongs to one project (the key finds the project). */
function distinctProjects(input: unknown, ctx: z.RefinementCtx): void {
  const issue = issuesOf(ctx);
  const projects = items(fields(input).projects).map(fields);
  for (const key of ['pos_id', 'api_key', 'widget_key'] as const) {
    repeated(projects.map((project) => project[key])).forEach((index) => issue(['projects', index, key], 'is already another project’s'));
  }
}

/** Indexes of the values that appeared earlier in the list (values that are not text or numbers aside). */
export function repeated(values: readonly unknown[]): number[] {
  const seen = new Set<unknown>();
  return values.flatMap((value, index) => {
    if (typeof value !== 'string' && typeof value !== 'number') return [];
    if (seen.has(value)) return [index];
    seen.add(value);
    return [];
  });
}
