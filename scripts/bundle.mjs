// `npm run build`, after tsc: bundles three entries of dist into dist/bundle,
// each with the packages it imports:
// - daemon.js, the daemon's app (with the MCP SDK and zod). Node 20's ESM
//   loader pays per module (resolution, an async read, compilation): ~190
//   modules cost ~320 ms of a cold `moor stdio`'s daemon start; the bundle
//   loads in ~190.
// - cli-decisions.cjs, what one-shot `moor decisions …` commands run: the
//   command table and its printing from dist/cli, and the app (the decisions
//   pack's tools in-process, no SDK) behind a dynamic import, which becomes
//   a part of the file run only when the command answers locally (a command a
//   daemon answers never runs it). A git hook pays for one file, compiled from
//   a V8 code cache (src/app/code-cache.ts).
// - cli-loader.cjs, what loads it (src/app/bundle-loader.ts with the code cache
//   and the state dir's checks): one module for main.js to import, not four.
// Each entry is bundled on its own so that neither loads the other's shared
// chunks. CommonJS packages stay external (pino, better-sqlite3, pg,
// prom-client: loaded by require), and so does the OpenTelemetry SDK, which
// loads only when tracing is on. dist/bundle sits at the same depth as
// dist/app and dist/cli, so paths built from import.meta.url
// (../../package.json) still resolve. src/app/bundle-loader.ts uses a bundle
// only when it is at least as new as its entry; without rolldown this step is
// skipped and everything loads from dist/app and dist/cli as before.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyDependencies } from './lazy-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist/bundle');
// The CLI's bundle is minified: a hook pays for compiling it on every run, and
// it prints messages, never stacks. The daemon's keeps names for its log.
// It is also one CommonJS file: src/app/code-cache.ts compiles it from a V8
// code cache, which Node 20 offers for scripts, not for ES modules.
// The SDK stays out of it (read from node_modules if ever needed): every run
// reads the whole file, and a one-shot run imports the SDK lazily, only for
// the one error a store-less run never raises and for a draft's elicitation.
const ENTRIES = [
  { name: 'daemon', minify: false, format: 'esm', external: [] },
  // What the CLI's main.js imports to load the next one: one ES module instead of four.
  // CommonJS: its builtins come by require, where an ES module pays a facade for each.
  { name: 'cli-loader', input: 'dist/app/bundle-loader.js', minify: true, format: 'cjs', external: [] },
  {
    name: 'cli-decisions',
    input: 'dist/cli/decisions-commands.js',
    minify: true,
    format: 'cjs',
    external: [/^@modelcontextprotocol\//],
    // zod and js-yaml initialized on first use (scripts/lazy-deps.mjs).
    plugins: [lazyDependencies(root)],
  },
];

let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch {
  fs.rmSync(outDir, { recursive: true, force: true });
  console.warn('bundle: rolldown is not installed; moor loads dist/app unbundled');
  process.exit(0);
}

fs.rmSync(outDir, { recursive: true, force: true });
for (const { name, input = `dist/app/${name}.js`, minify, format, external, plugins = [] } of ENTRIES) {
  const bundle = await rolldown({
    plugins,
    input: { [name]: path.join(root, input) },
    platform: 'node',
    external: ['pino', 'better-sqlite3', 'pg', 'prom-client', /^@opentelemetry\//, /^node:/, ...external],
    logLevel: 'warn',
  });
  // Chunks are named after their entry: both builds write into one folder.
  await bundle.write(
    format === 'cjs'
      ? // import() of a builtin becomes require: a vm.Script on Node 20 has no loader for import() without a warning.
        {
          file: path.join(outDir, `${name}.cjs`),
          format,
          sourcemap: false,
          minify,
          codeSplitting: false,
          dynamicImportInCjs: false,
          // ASCII source reads into a one-byte string: a hook reads this whole file on every run.
          charset: 'ascii',
        }
      : {
          dir: outDir,
          format,
          sourcemap: false,
          minify,
          chunkFileNames: `${name}-[name]-[hash].js`,
          charset: 'ascii',
        },
  );
  await bundle.close();
}
