// A rolldown plugin for the one-shot CLI bundle (scripts/bundle.mjs): zod and
// js-yaml are initialized when first used, not when the bundle starts.
//
// A one-shot `moor decisions …` whose arguments pass the tools' quick checks
// never builds a zod schema, and one that finds every record in the parse
// cache never parses YAML; yet every module the app imports runs its top level
// when the app loads, and zod's defines a hundred classes (about 1 ms, plus
// its bytecode in the code cache every run deserializes). So, in this bundle
// only, our `import { z } from 'zod'` gets a stand-in whose members load the
// real module on first access, and `js-yaml` one whose functions do. The
// stand-ins `require` the real modules' ES entries, which rolldown bundles as
// lazily run parts of the same file (no file is read at run time), and zod's
// entry re-exports only the members moor calls, so tree-shaking keeps what it
// kept before. The daemon's bundle and the unbundled modules import both as
// they are.
//
// ZOD_MEMBERS must name every `z.<member>` the bundled code reads at run time;
// the build fails when the bundle's sources use one it does not name.
import path from 'node:path';

const ZOD_MEMBERS = [
  'string',
  'object',
  'strictObject',
  'looseObject',
  'array',
  'number',
  'boolean',
  'record',
  'enum',
];

const ZOD_STAND_IN = '\0moor-lazy-zod';
const ZOD_USED = '\0moor-zod-used';
const YAML_STAND_IN = '\0moor-lazy-js-yaml';

export function lazyDependencies(root) {
  const zodClassic = path.join(root, 'node_modules/zod/v4/classic/external.js');
  const yamlEsm = path.join(root, 'node_modules/js-yaml/dist/js-yaml.mjs');
  const seen = new Set();
  return {
    name: 'moor-lazy-dependencies',
    resolveId(source, importer) {
      if (importer === undefined || importer.startsWith('\0')) return source === ZOD_USED ? ZOD_USED : null;
      if (source === 'zod') return ZOD_STAND_IN;
      if (source === 'js-yaml') return YAML_STAND_IN;
      return null;
    },
    load(id) {
      if (id === ZOD_USED)
        // `enum` is a reserved word: re-exported under another name, read back as z.enum.
        return `export { ${ZOD_MEMBERS.map((m) => (m === 'enum' ? 'enum as enum_' : m)).join(', ')} } from ${JSON.stringify(zodClassic)};`;
      if (id === ZOD_STAND_IN)
        return [
          'let zod;',
          `const real = () => (zod ??= require(${JSON.stringify(ZOD_USED)}));`,
          "export const z = new Proxy({}, { get: (_, member) => real()[member === 'enum' ? 'enum_' : member] });",
        ].join('\n');
      if (id === YAML_STAND_IN)
        return [
          'let yaml;',
          `const real = () => (yaml ??= require(${JSON.stringify(yamlEsm)}));`,
          // A token for the schema option, swapped for the real schema when load runs.
          'export const CORE_SCHEMA = Object.freeze({});',
          'export function load(text, options) {',
          '  return real().load(text, options?.schema === CORE_SCHEMA ? { ...options, schema: real().CORE_SCHEMA } : options);',
          '}',
          'export class YAMLException extends Error {',
          '  static [Symbol.hasInstance](value) { return value instanceof real().YAMLException; }',
          '}',
        ].join('\n');
      return null;
    },
    transform(code, id) {
      // Every member our compiled modules read (tsc has erased the types) must be one the stand-in gives.
      if (id.startsWith('\0') || id.includes('node_modules') || !/\bfrom 'zod'/.test(code)) return null;
      for (const [, member] of code.matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) seen.add(member);
      const missing = [...seen].filter((m) => !ZOD_MEMBERS.includes(m));
      if (missing.length > 0)
        this.error(
          `${path.relative(root, id)} uses z.${missing.join(', z.')}: add it to ZOD_MEMBERS in scripts/lazy-deps.mjs`,
        );
      return null;
    },
  };
}
