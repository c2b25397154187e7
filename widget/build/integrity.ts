import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** Where the hashes go, beside the files they are of. */
const INTEGRITY_FILE = 'integrity.json';

/** A Subresource Integrity value of `bytes`: what a `<script integrity>` attribute takes. */
function sha384(bytes: string): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/**
 * Build-only: writes integrity.json beside the built files, `{ "<file>": "sha384-…" }` for each
 * entry chunk, computed from the code as written out (after minification), so a page can pin it.
 */
export function subresourceIntegrity(): Plugin {
  return {
    name: 'payform:subresource-integrity',
    apply: 'build',
    generateBundle(_, bundle) {
      const hashes = Object.fromEntries(Object.values(bundle).flatMap((output) => (output.type === 'chunk' && output.isEntry ? [[output.fileName, sha384(output.code)]] : [])));
      this.emitFile({ type: 'asset', fileName: INTEGRITY_FILE, source: `${JSON.stringify(hashes, null, 2)}\n` });
    },
  };
}
