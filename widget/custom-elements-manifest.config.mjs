// The custom-elements manifest (widget/dist/custom-elements.json) from the components' JSDoc headers
// (@event, @csspart, @cssproperty, @attr): `cem analyze --config widget/custom-elements-manifest.config.mjs`.
// It describes the modules the package ships (dist/lib, tsconfig.lib.json's), by their paths in it:
// tools read `path` and `module` from the package's root.
import { posix } from 'node:path';

export default {
  globs: ['widget/**/*.ts'],
  exclude: ['widget/**/*.test.ts', 'widget/test/**', 'widget/build/**', 'widget/dist/**', 'widget/**/*.d.ts', 'widget/budget.ts', 'widget/card/**'],
  outdir: 'widget/dist',
  // package.json's "customElements" field is kept by hand.
  packagejson: false,
  litelement: true,
  plugins: [
    {
      // Analysed from the sources (widget/pay-form/pay-form.ts), shipped as their build
      // (dist/lib/pay-form/pay-form.js). A reference is written as the analyser found it: the
      // source's path, the same with a leading slash, or a re-export's specifier (./events.js).
      name: 'payform:shipped-paths',
      packageLinkPhase({ customElementsManifest }) {
        const source = (reference, from) => (reference.startsWith('.') ? posix.join(posix.dirname(from), reference) : reference.replace(/^\//, ''));
        const shipped = (reference, from) => {
          const match = /^widget\/(.*)\.[jt]s$/.exec(source(reference, from));
          return match ? `dist/lib/${match[1]}.js` : reference;
        };
        const visit = (value, from) => {
          if (Array.isArray(value)) return value.forEach((item) => visit(item, from));
          if (!value || typeof value !== 'object') return;
          if (typeof value.module === 'string') value.module = shipped(value.module, from);
          Object.values(value).forEach((item) => visit(item, from));
        };
        for (const module of customElementsManifest.modules) {
          visit(module.declarations, module.path);
          visit(module.exports, module.path);
          module.path = shipped(module.path, module.path);
        }
      },
    },
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
