/**
 * Which build of the daemon's app to load. `npm run build` bundles
 * dist/app/daemon.js into dist/bundle/daemon.js (scripts/bundle-daemon.mjs:
 * one ESM graph of a few modules instead of ~190, ~130 ms less of a cold
 * start). The bundle is used only when it is at least as new as the app it
 * was made from, so a later tsc-only build (or running from source) is never
 * shadowed by a stale bundle.
 */
import fs from 'node:fs';

export type DaemonApp = typeof import('./daemon.js');

export async function loadDaemonApp(): Promise<DaemonApp> {
  const app = new URL('./daemon.js', import.meta.url);
  const bundle = new URL('../bundle/daemon.js', import.meta.url);
  try {
    if (fs.statSync(bundle).mtimeMs >= fs.statSync(app).mtimeMs)
      return (await import(bundle.href)) as DaemonApp;
  } catch {
    // no bundle (or no compiled app next to it): the unbundled app
  }
  return import('./daemon.js');
}
