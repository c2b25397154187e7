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
      // Members marked `@internal` (what the pay-time chunk, checkout/paying.ts, works with) are no
      // API: the Lit plugin would list the reactive ones among `static properties` anyway.
      name: 'payform:no-internal-members',
      analyzePhase({ ts, node, moduleDoc }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        const internal = new Set(node.members.filter((member) => member.name && ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal')).map((member) => member.name.getText()));
        const declaration = moduleDoc.declarations?.find((candidate) => candidate.name === node.name.getText());
        if (declaration) declaration.internalMembers = [...internal];
      },
      packageLinkPhase({ customElementsManifest }) {
        const declarations = customElementsManifest.modules.flatMap((module) => module.declarations ?? []);
        const internal = new Map(declarations.map((declaration) => [declaration.name, new Set(declaration.internalMembers)]));
        // An inherited member is internal where it is declared.
        const isInternal = (declaration, name, from) => internal.get(from?.name ?? declaration.name)?.has(name);
        for (const declaration of declarations) {
          delete declaration.internalMembers;
          if (declaration.members) declaration.members = declaration.members.filter((member) => !isInternal(declaration, member.name, member.inheritedFrom));
          if (declaration.attributes) declaration.attributes = declaration.attributes.filter((attribute) => !isInternal(declaration, attribute.fieldName, attribute.inheritedFrom));
        }
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
