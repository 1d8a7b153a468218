/**
 * The daemon's app: dist/bundle/daemon.js when it is fresh, else dist/app
 * (the rule is bundle-loader.ts's).
 */
import { loadBundled } from './bundle-loader.js';

export type DaemonApp = typeof import('./daemon.js');

export function loadDaemonApp(): Promise<DaemonApp> {
  return loadBundled('daemon', () => import('./daemon.js'));
}
