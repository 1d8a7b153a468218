// `npm run build`, after tsc: bundles two entries of dist/app into
// dist/bundle, each with the packages it imports:
// - daemon.js, the daemon's app (with the MCP SDK and zod). Node 20's ESM
//   loader pays per module (resolution, an async read, compilation): ~190
//   modules cost ~320 ms of a cold `moor stdio`'s daemon start; the bundle
//   loads in ~190.
// - cli-app.js, what one-shot `moor decisions …` commands run (the decisions
//   pack's tools in-process, no SDK), so a git hook pays for a few files.
// Each entry is bundled on its own so that neither loads the other's shared
// chunks. CommonJS packages stay external (pino, better-sqlite3, pg,
// prom-client: loaded by require), and so does the OpenTelemetry SDK, which
// loads only when tracing is on. dist/bundle sits at the same depth as
// dist/app, so paths built from import.meta.url (../../package.json) still
// resolve. src/app/bundle-loader.ts uses a bundle only when it is at least as
// new as its entry in dist/app; without rolldown this step is skipped and
// everything loads from dist/app as before.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist/bundle');
// The CLI's bundle is minified: a hook pays for compiling it on every run, and
// it prints messages, never stacks. The daemon's keeps names for its log.
const ENTRIES = [
  { name: 'daemon', minify: false },
  { name: 'cli-app', minify: true },
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
for (const { name, minify } of ENTRIES) {
  const bundle = await rolldown({
    input: { [name]: path.join(root, `dist/app/${name}.js`) },
    platform: 'node',
    external: ['pino', 'better-sqlite3', 'pg', 'prom-client', /^@opentelemetry\//, /^node:/],
    logLevel: 'warn',
  });
  // Chunks are named after their entry: both builds write into one folder.
  await bundle.write({
    dir: outDir,
    format: 'esm',
    sourcemap: false,
    minify,
    chunkFileNames: `${name}-[name]-[hash].js`,
  });
  await bundle.close();
}
