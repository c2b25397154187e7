// The custom-elements manifest (widget/dist/custom-elements.json) from the components' JSDoc headers
// (@event, @csspart, @cssproperty, @attr): `cem analyze --config widget/custom-elements-manifest.config.mjs`.
export default {
  globs: ['widget/**/*.ts'],
  exclude: ['widget/**/*.test.ts', 'widget/test/**', 'widget/build/**', 'widget/dist/**', 'widget/**/*.d.ts'],
  outdir: 'widget/dist',
  // package.json's "customElements" field is kept by hand.
  packagejson: false,
  litelement: true,
  plugins: [
    {
      // Point the manifest at the published modules (dist/lib/…js, relative to the package), not at the TypeScript sources.
      name: 'payform:published-paths',
      packageLinkPhase({ customElementsManifest }) {
        const publish = (path) => path.replace(/^widget\//, 'dist/lib/').replace(/\.ts$/, '.js');
        const walk = (node) => {
          if (Array.isArray(node)) return node.forEach(walk);
          if (!node || typeof node !== 'object') return;
          for (const [key, value] of Object.entries(node)) {
            if ((key === 'path' || key === 'module') && typeof value === 'string') node[key] = publish(value);
            else walk(value);
          }
        };
        walk(customElementsManifest.modules);
      },
    },
    {
      // Reactive state (`static properties` with `state: true`) is private, not an attribute.
      name: 'payform:no-state-attributes',
      packageLinkPhase({ customElementsManifest }) {
        for (const declaration of customElementsManifest.modules.flatMap((module) => module.declarations ?? [])) {
          const hidden = new Set((declaration.members ?? []).filter((member) => member.privacy && member.privacy !== 'public').map((member) => member.name));
          if (declaration.attributes) declaration.attributes = declaration.attributes.filter((attribute) => !hidden.has(attribute.fieldName));
        }
      },
    },
  ],
};
