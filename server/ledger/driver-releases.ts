// Which release of each database driver the companion takes, and the command that installs or
// builds one, in the words of the package manager the merchant runs. Apart from drivers.ts, whose
// types name the drivers' own: missing-driver.ts, read by a merchant's compiler, imports this.
import { createRequire } from 'node:module';

/** The companion's peerDependencies (driver-releases.test.ts holds them equal to its package.json). */
export const DRIVER_RANGES = { 'better-sqlite3': '^12.11.1', pg: '^8.23.1' } as const;
export type Driver = keyof typeof DRIVER_RANGES;

/** A caret range's lowest release, as numbers (the ranges above are each one caret range). */
const lowest = (driver: Driver) => DRIVER_RANGES[driver].slice(1).split('.').map(Number) as [number, number, number];

/** The tool running this process, from the variable npm, pnpm, Yarn and Bun set for their scripts and bins. */
function packageManager(): string | undefined {
  return /^(npm|pnpm|yarn|bun)\//.exec(process.env.npm_config_user_agent ?? '')?.[1];
}

/**
 * Under Bun or Deno, why no better-sqlite3 the companion takes will do: neither loads 12 (Bun:
 * "not yet supported"; Deno: not a Node-API addon). Undefined under Node.
 */
export function sqliteUnloadable(): string | undefined {
  const runtime = process.versions.bun ? 'Bun' : 'Deno' in globalThis ? 'Deno' : undefined;
  return runtime && `${runtime} does not load better-sqlite3 12, the companion's SQLite driver: set PAYFORM_DATABASE_URL to a postgres:// ledger, or run the companion with Node`;
}

/** `npm install better-sqlite3@12`, or pnpm's, Yarn's or Bun's `add`: the release the companion takes. */
export function installCommand(driver: Driver): string {
  const spec = `${driver}@${lowest(driver)[0]}`;
  const tool = packageManager();
  return tool && tool !== 'npm' ? `${tool} add ${spec}` : `npm install ${spec}`;
}

/**
 * How to build better-sqlite3's native module that an install left unbuilt, as a step to take.
 * pnpm 10 and Yarn 4 run no dependency's install script unless the project allows it, and `npm
 * rebuild` does nothing under Yarn's Plug'n'Play. Started other than through a package manager,
 * npm's words, then the others'.
 */
export function rebuildStep(): string {
  const pnpm = 'run `pnpm approve-builds`, then `pnpm rebuild better-sqlite3`';
  const yarn = 'allow its build in package.json (`"dependenciesMeta": { "better-sqlite3": { "built": true } }`), then run `yarn install`';
  const agent = process.env.npm_config_user_agent ?? '';
  switch (packageManager()) {
    case 'pnpm':
      // approve-builds came with pnpm 10, which stopped running install scripts unasked.
      return Number(/^pnpm\/(\d+)/.exec(agent)?.[1]) < 10 ? 'run `pnpm rebuild better-sqlite3`' : pnpm;
    case 'yarn':
      return yarn;
    case 'npm':
      return 'run `npm rebuild better-sqlite3`';
    default:
      return `run \`npm rebuild better-sqlite3\` (pnpm: ${pnpm.replace('run ', '')}; Yarn: ${yarn})`;
  }
}

/**
 * What stops the installed release of `driver` from running here, read from its package.json
 * before it is loaded: a release that asks for another Node (better-sqlite3 13 asks for 22, and
 * Node 20 loading it ends with a segmentation fault: no error to catch, no word), or one older
 * than the companion takes. pnpm and Yarn install it over the peer range with only a warning.
 * A later major this Node runs is left to load, as npm would with its warning. Bun and Deno are
 * left to load what they can: 12 loads in neither, 13 in both.
 */
export async function unfitRelease(driver: Driver, from: string): Promise<string | undefined> {
  if (process.versions.bun || process.versions.deno) return undefined;
  let installed: { version?: unknown; engines?: { node?: unknown } };
  try {
    installed = createRequire(from)(`${driver}/package.json`) as typeof installed;
  } catch {
    return undefined; // Not installed, or unreadable: the import says which.
  }
  const { version, engines } = installed;
  if (typeof version !== 'string') return undefined;
  // Within the peer range, the release the companion is tested with: no more to read, and no
  // semver to load at every start (tens of milliseconds).
  const [major, minor, patch] = version.split('.').map((part) => Number.parseInt(part, 10));
  const [least, leastMinor, leastPatch] = lowest(driver);
  if (major === least && (minor! > leastMinor || (minor === leastMinor && patch! >= leastPatch))) return undefined;
  const { default: semver } = await import('semver');
  if (!semver.valid(version)) return undefined;
  const range = DRIVER_RANGES[driver];
  const fix = `run \`${installCommand(driver)}\`, the release the companion takes (${range})`;
  if (typeof engines?.node === 'string' && semver.validRange(engines.node) && !semver.satisfies(process.versions.node, engines.node)) {
    return `${driver} ${version} is installed, which asks for Node ${engines.node}: this is ${process.version}, where loading it would end the process without a word; ${fix}`;
  }
  if (semver.ltr(version, range)) return `${driver} ${version} is installed, older than the companion takes: ${fix}`;
  return undefined;
}
