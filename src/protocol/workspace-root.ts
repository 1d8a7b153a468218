/**
 * Which workspace a client means: the one rule shared by the proxy (before it
 * says hello), the direct server and the daemon. Node built-ins only, so the
 * proxy can use it without loading pack code.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { MoorError } from '../errors.js';

export interface WorkspaceRootOptions {
  /** `--workspace DIR`, relative to cwd when not absolute. */
  readonly workspace?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Thrown when an explicitly named workspace does not exist; discovery itself never fails. */
export class WorkspaceNotFoundError extends MoorError {
  override readonly name: string = 'WorkspaceNotFoundError';
  constructor(readonly dir: string) {
    super('WORKSPACE_INVALID', `workspace directory ${dir} does not exist or is not a directory`, { dir });
  }
}

function realpathOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function explicitRoot(dir: string, cwd: string): string {
  const abs = path.resolve(cwd, dir);
  const real = realpathOrNull(abs);
  if (real === null || !isDirectory(real)) throw new WorkspaceNotFoundError(abs);
  return real;
}

/**
 * `--workspace`, else MOOR_WORKSPACE (both must name existing directories),
 * else the nearest ancestor of cwd holding `.git`, else cwd.
 */
export function resolveWorkspaceRoot(options: WorkspaceRootOptions): string {
  const { workspace, env, cwd } = options;
  if (workspace !== undefined && workspace !== '') return explicitRoot(workspace, cwd);
  const fromEnv = env.MOOR_WORKSPACE;
  if (fromEnv !== undefined && fromEnv !== '') return explicitRoot(fromEnv, cwd);
  const start = realpathOrNull(path.resolve(cwd)) ?? path.resolve(cwd);
  for (let dir = start; ; dir = path.dirname(dir)) {
    // `.git` is a directory in clones and a file in worktrees and submodules.
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  return start;
}
