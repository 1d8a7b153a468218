// `npm run build`, after tsc: bundles the daemon's app (dist/app/daemon.js with
// the MCP SDK and zod) into dist/bundle/daemon.js. Node 20's ESM loader pays
// per module (resolution, an async read, compilation): ~190 modules cost
// ~320 ms of a cold `moor stdio`'s daemon start; the bundle loads in ~190.
// CommonJS packages stay external (pino, pg, better-sqlite3: native, loaded by
// require). dist/bundle sits at the same depth as dist/app, so paths built
// from import.meta.url (../../package.json) still resolve. The CLI uses the
// bundle only when it is at least as new as dist/app/daemon.js; without
// rolldown this step is skipped and the daemon loads dist/app as before.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist/bundle');

let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch {
  fs.rmSync(outDir, { recursive: true, force: true });
  console.warn('bundle-daemon: rolldown is not installed; the daemon loads dist/app unbundled');
  process.exit(0);
}

fs.rmSync(outDir, { recursive: true, force: true });
const bundle = await rolldown({
  input: { daemon: path.join(root, 'dist/app/daemon.js') },
  platform: 'node',
  // prom-client (CommonJS), pg and the OpenTelemetry SDK (loaded only when tracing is on) stay external too.
  external: ['pino', 'better-sqlite3', 'pg', 'prom-client', /^@opentelemetry\//, /^node:/],
  logLevel: 'warn',
});
await bundle.write({ dir: outDir, format: 'esm', sourcemap: false });
await bundle.close();
