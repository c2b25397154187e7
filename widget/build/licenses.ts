import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

// Lit's four packages, all BSD-3-Clause under the same Google LLC notice.
const BUNDLED = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element'];

/**
 * Build-only: writes LICENSES.txt beside the bundle with the licences of the code bundled into it,
 * instead of a comment that every page load would download.
 */
export function thirdPartyLicenses(): Plugin {
  const require = createRequire(import.meta.url);
  return {
    name: 'payform:third-party-licenses',
    apply: 'build',
    generateBundle() {
      // lit's main module sits at the package root, next to its LICENSE.
      const license = readFileSync(join(dirname(require.resolve('lit')), 'LICENSE'), 'utf8');
      this.emitFile({
        type: 'asset',
        fileName: 'LICENSES.txt',
        source: `The widget bundle (pay-form.js) includes ${BUNDLED.join(', ')}:\n\n${license}`,
      });
    },
  };
}
