/**
 * Which build of an app entry to load. `npm run build` bundles some entries
 * of dist/app into dist/bundle (scripts/bundle.mjs: one ESM file instead of
 * up to ~190 modules, which Node 20 loads one by one). A bundle is used only
 * when it is at least as new as the entry it was made from, so a later
 * tsc-only build (or running from source) is never shadowed by a stale one.
 */
import fs from 'node:fs';

/**
 * dist/bundle/NAME.js when it is at least as new as dist/app/NAME.js, else
 * `unbundled()` (which imports ./NAME.js, written out so it stays typed).
 */
export async function loadBundled<T>(name: string, unbundled: () => Promise<T>): Promise<T> {
  const entry = new URL(`./${name}.js`, import.meta.url);
  const bundle = new URL(`../bundle/${name}.js`, import.meta.url);
  try {
    if (fs.statSync(bundle).mtimeMs >= fs.statSync(entry).mtimeMs) return (await import(bundle.href)) as T;
  } catch {
    // no bundle (or no compiled entry next to it): the unbundled app
  }
  return unbundled();
}

export type CliApp = typeof import('./cli-app.js');

/** The one-shot CLI's app (`moor decisions …`). */
export function loadCliApp(): Promise<CliApp> {
  return loadBundled('cli-app', () => import('./cli-app.js'));
}
