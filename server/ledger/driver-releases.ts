// Which release of each database driver the companion takes, and the command that installs or
// builds one, in the words of the package manager the merchant runs. Apart from drivers.ts, whose
// types name the drivers' own: missing-driver.ts, read by a merchant's compiler, imports this.
import { createRequire } from 'node:module';

/** The companion's peerDependencies (driver-releases.test.ts holds them equal to its package.json). */
export const DRIVER_RANGES = { 'better-sqlite3': '^12.11.1', pg: '^8.23.1' } as const;
export type Driver = keyof typeof DRIVER_RANGES;

const majorOf = (version: string) => version.replace(/^[\^~]/, '').split('.')[0]!;

/** The tool running this process, from the variable npm, pnpm, Yarn and Bun set for their scripts and bins. */
function packageManager(): string | undefined {
  return /^(npm|pnpm|yarn|bun)\//.exec(process.env.npm_config_user_agent ?? '')?.[1];
}

/** `npm install better-sqlite3@12`, or pnpm's, Yarn's or Bun's `add`: the release the companion takes. */
export function installCommand(driver: Driver): string {
  const spec = `${driver}@${majorOf(DRIVER_RANGES[driver])}`;
  const tool = packageManager();
  return tool && tool !== 'npm' ? `${tool} add ${spec}` : `npm install ${spec}`;
}

/**
 * How to build better-sqlite3's native module that an install left unbuilt. pnpm 10 and Yarn 4
 * run no dependency's install script unless the project allows it, and `npm rebuild` does
 * nothing under Yarn's Plug'n'Play. Started other than through a package manager, npm's words,
 * then the others'.
 */
export function rebuildCommand(): string {
  const pnpm = '`pnpm approve-builds`, then `pnpm rebuild better-sqlite3`';
  const yarn = 'allow its build in package.json (`"dependenciesMeta": { "better-sqlite3": { "built": true } }`), then `yarn install`';
  switch (packageManager()) {
    case 'pnpm':
      return pnpm;
    case 'yarn':
      return yarn;
    case 'npm':
      return '`npm rebuild better-sqlite3`';
    default:
      return `\`npm rebuild better-sqlite3\` (pnpm: ${pnpm}; Yarn: ${yarn})`;
  }
}

/**
 * What is wrong with the installed release of `driver`, read from its package.json before it is
 * loaded, when it is another major than the companion takes. better-sqlite3 13 asks for Node 22,
 * and an older Node that loads it ends with a segmentation fault: no error to catch, no word.
 * pnpm and Yarn install it where the peer range says 12 with only a warning, npm when told to.
 * Bun and Deno are left to load what they can: 12 loads in neither, 13 in both.
 */
export function otherRelease(driver: Driver, from: string): string | undefined {
  if (process.versions.bun || process.versions.deno) return undefined;
  let installed: { version?: unknown; engines?: { node?: unknown } };
  try {
    installed = createRequire(from)(`${driver}/package.json`) as typeof installed;
  } catch {
    return undefined; // Not installed, or unreadable: the import says which.
  }
  const range = DRIVER_RANGES[driver];
  if (typeof installed.version !== 'string' || majorOf(installed.version) === majorOf(range)) return undefined;
  const engines = typeof installed.engines?.node === 'string' ? ` (${installed.version} asks for Node ${installed.engines.node}; this is ${process.version})` : '';
  return `${driver} ${installed.version} is installed, and the companion takes ${driver} ${range}, its peer dependency${engines}: run \`${installCommand(driver)}\``;
}
