/**
 * No silent downgrade: `moor daemon start|restart` of a moor older than the
 * running daemon leaves that daemon alone unless told to replace it
 * (`--force`). An older proxy already keeps a newer daemon; the command line,
 * which a user runs without looking at versions, must not quietly do less.
 */
import { MoorError } from '../../errors.js';
import type { StatePaths } from '../../protocol/state-dir.js';
import { compareVersions } from '../../protocol/version.js';
import { IDENTITY } from '../identity.js';
import { askDaemon } from './daemon-control.js';

export type DowngradeCheck =
  /** No daemon runs, or it is not newer than this moor (or a version is not semver): go ahead. */
  | { readonly kind: 'proceed' }
  /** A newer daemon runs and `--force` was not given: leave it, say why. */
  | { readonly kind: 'refuse'; readonly error: MoorError }
  /** A newer daemon runs and `--force` was given: stop it before starting this moor's. */
  | { readonly kind: 'replace'; readonly pid: number; readonly version: string };

/** Whether this moor (`ownVersion`) may start or restart the daemon of `paths`. */
export async function checkDowngrade(
  paths: StatePaths,
  force: boolean,
  ownVersion: string = IDENTITY.version,
): Promise<DowngradeCheck> {
  const reply = await askDaemon(paths, 'status');
  if (!reply) return { kind: 'proceed' };
  const { pid, version } = reply.incarnation;
  const order = compareVersions(ownVersion, version);
  // Versions that are not semver (a dev build) cannot be ordered; treat them as no downgrade.
  if (order === undefined || order >= 0) return { kind: 'proceed' };
  if (force) return { kind: 'replace', pid, version };
  return { kind: 'refuse', error: downgradeRefused(version, ownVersion) };
}

export function downgradeRefused(running: string, own: string): MoorError {
  return new MoorError(
    'DOWNGRADE_REFUSED',
    `the running daemon is ${running}, newer than this moor ${own}; refusing to replace it (use --force)`,
    { running, own },
  );
}
