/**
 * Options shared by every entry point that serves or queries a workspace.
 */
import path from 'node:path';
import { resolveWorkspaceRoot } from '../../packs/decisions/corpus/find/discover.js';

export interface WorkspaceOptions {
  readonly workspace?: string | undefined;
  readonly decisions?: string | undefined;
}

export interface ResolvedWorkspace {
  readonly root: string;
  /** Absolute `--decisions` folder, when given; a relative one is taken from the workspace root, as `.adr-dir` is. */
  readonly decisionsDir: string | undefined;
}

export function resolveWorkspace(options: WorkspaceOptions, cwd = process.cwd()): ResolvedWorkspace {
  const root = resolveWorkspaceRoot({ workspace: options.workspace, env: process.env, cwd });
  const decisionsDir = options.decisions ? path.resolve(root, options.decisions) : undefined;
  return { root, decisionsDir };
}

/** How `moor daemon run` treats its store (`--reset-store`). */
export interface StoreOptions {
  /** A corrupt moor.db is moved aside (moor.db.corrupt-<time>, with -wal/-shm) and a fresh store started. */
  readonly resetStore?: boolean | undefined;
}
