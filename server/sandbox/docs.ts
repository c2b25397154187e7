/** Where the sandbox's documentation lives: it travels with the package, not with a repository's docs/. */
export const SANDBOX_DOCS = 'https://github.com/payform/payform/tree/main/server/sandbox#readme';

/** The same, read where the package is installed, offline too: the guide it ships. */
export const SANDBOX_DOCS_SAID = `${SANDBOX_DOCS} (offline: docs/sandbox.md in the installed package)`;
