/** Where the sandbox's documentation lives: it travels with the package, not with a repository's docs/. */
export const SANDBOX_DOCS = 'https://github.com/payform/payform/tree/main/server/sandbox#readme';
