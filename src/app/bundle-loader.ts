/**
 * Which build of an app entry to load. `npm run build` bundles some entries
 * of dist/app into dist/bundle (scripts/bundle.mjs: one ESM file instead of
 * up to ~190 modules, which Node 20 loads one by one). A bundle is used only
 * when it is at least as new as the entry it was made from, so a later
 * tsc-only build (or running from source) is never shadowed by a stale one.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from './code-cache.js';
import { oneShotCacheDir } from './one-shot-cache-dir.js';

/**
 * dist/bundle/NAME.js when it is at least as new as dist/app/NAME.js, else
 * `unbundled()` (which imports ./NAME.js, written out so it stays typed).
 */
export async function loadBundled<T>(name: string, unbundled: () => Promise<T>): Promise<T> {
  // From dist/app or, bundled into the CLI's loader, from dist/bundle: the same depth either way.
  const entry = new URL(`../app/${name}.js`, import.meta.url);
  const bundle = new URL(`../bundle/${name}.js`, import.meta.url);
  try {
    if (fs.statSync(bundle).mtimeMs >= fs.statSync(entry).mtimeMs) return (await import(bundle.href)) as T;
  } catch {
    // no bundle (or no compiled entry next to it): the unbundled app
  }
  return unbundled();
}

/**
 * Whether this module may be used: unbundled it is dist/app/bundle-loader.js
 * itself; bundled (dist/bundle/cli-loader.cjs), only when at least as new as
 * that source, so a later tsc-only build is never shadowed by a stale copy.
 */
export function loaderIsFresh(): boolean {
  const self = fileURLToPath(import.meta.url);
  const source = fileURLToPath(new URL('../app/bundle-loader.js', import.meta.url));
  if (self === source) return true;
  try {
    return fs.statSync(self).mtimeMs >= fs.statSync(source).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * A CommonJS bundle of the one-shot CLI (`dist/bundle/NAME.cjs`), compiled
 * from a V8 code cache in the state dir when one fits (code-cache.ts): ESM has
 * no such cache on Node 20, and a hook pays the compile on every run. Its
 * exports, or undefined when there is no bundle at least as new as `entry`
 * (the compiled module it was built from): the caller then imports `entry`
 * itself. `use` names the command running (`decisions search`).
 */
export function loadCliBundle(entry: URL, name: string, use: string): unknown {
  const bundle = fileURLToPath(new URL(`../bundle/${name}.cjs`, import.meta.url));
  // The binary (moor.cjs) may have run it already before handing the command to main.js.
  if (loaded.has(bundle)) return loaded.get(bundle);
  try {
    if (fs.statSync(bundle).mtimeMs < fs.statSync(entry).mtimeMs) return undefined;
  } catch (error) {
    // No bundle (or no compiled entry beside it): the unbundled modules.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // A bundle that fails to run is a defect to see, not one to hide behind the unbundled modules.
  const { exports } = requireWithCodeCache(bundle, oneShotCacheDir(), use);
  loaded.set(bundle, exports);
  return exports;
}

/** The bundles this process has run, by path: a bundle runs once, like a required module. */
const loaded = new Map<string, unknown>();
