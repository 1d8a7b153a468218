/**
 * Which folders a daemon may serve as a workspace. One rule for every door a
 * path comes in by (connect_workspace, the HTTP Moor-Workspace header, a
 * hello, a tool's `workspace` argument): an absolute (or, with a base,
 * resolved) path to an existing directory, taken through its symlinks, that
 * is inside one of the `--allow-root` directories when any are configured,
 * or else owned by the daemon's user; and never, for a daemon running as
 * root, a system folder (system-folders.ts). Every test is made on the real
 * path, so `//etc`, `/./etc/`, a symlink to /etc and `/proc/self/root` are
 * all the folder they lead to. The daemon is the user's own; without this
 * rule any local client could make it read any folder the user can read but
 * does not own (another user's checkout on a shared machine, a mounted
 * volume). A workspace's decisions folder passes the same rule unless it is
 * inside the workspace, or naming one would read any folder at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MoorError } from '../errors.js';
import { isSystemFolder, refuseSystemFolder } from './system-folders.js';

export interface WorkspacePolicyOptions {
  /** `--allow-root` directories; when present a workspace must be one of them or inside one. */
  readonly allowedRoots?: readonly string[] | undefined;
  /** The daemon's user id (ownership rule); default: this process's. */
  readonly uid?: number | undefined;
}

export interface CheckOptions {
  /** How the error names the input: "Moor-Workspace", "path". Default "workspace". */
  readonly label?: string;
  /** Resolve a relative path against this directory instead of refusing it. */
  readonly base?: string | undefined;
}

export interface WorkspacePolicy {
  /** The resolved root (realpath) for `input`; throws MoorError('WORKSPACE_INVALID') saying why not. */
  check(input: string, options?: CheckOptions): string;
}

function realDirectory(dir: string): string | null {
  try {
    const real = fs.realpathSync(dir);
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function inside(root: string, allowed: string): boolean {
  return root === allowed || root.startsWith(allowed.endsWith(path.sep) ? allowed : `${allowed}${path.sep}`);
}

export function createWorkspacePolicy(options: WorkspacePolicyOptions = {}): WorkspacePolicy {
  // Allowed roots are compared after their own symlinks are resolved, like the candidate.
  const allowedRoots = options.allowedRoots?.map((r) => realDirectory(path.resolve(r)) ?? path.resolve(r));
  const uid = options.uid ?? process.getuid?.();
  return {
    check(input, checkOptions = {}) {
      const label = checkOptions.label ?? 'workspace';
      const invalid = (why: string) => new MoorError('WORKSPACE_INVALID', `${label} ${why}`, { path: input });
      if (input === '') throw invalid('is empty: give the absolute path of a directory.');
      if (!path.isAbsolute(input) && checkOptions.base === undefined) {
        throw invalid(`${input} is not an absolute path: give the directory's full path.`);
      }
      const absolute = path.resolve(checkOptions.base ?? '/', input);
      if (!fs.existsSync(absolute)) throw invalid(`${absolute} does not exist.`);
      const root = realDirectory(absolute);
      if (root === null) throw invalid(`${absolute} is not a directory.`);
      if (uid === 0 && isSystemFolder(root)) {
        throw invalid(
          `${root} is a system folder: the daemon runs as root and never serves one as a workspace.`,
        );
      }
      if (allowedRoots !== undefined) {
        if (!allowedRoots.some((allowed) => inside(root, allowed))) {
          throw invalid(`${root} is outside the daemon's allowed roots (${allowedRoots.join(', ')}).`);
        }
      } else if (uid !== undefined && fs.statSync(root).uid !== uid) {
        throw invalid(
          `${root} is not owned by the daemon's user; start the daemon with --allow-root to serve it.`,
        );
      }
      return root;
    },
  };
}

/** True while `dir` is still an existing directory (a bound workspace's folder may vanish). */
export function directoryExists(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** True while a bound workspace's root (and its named decision folder) still exist. */
export function workspaceExists(key: {
  readonly root: string;
  readonly decisions?: string | undefined;
}): boolean {
  return directoryExists(key.root) && (key.decisions === undefined || directoryExists(key.decisions));
}

/** The room key a connect asks for: the checked root, and its decision folder resolved against it and checked. */
export function connectTarget(
  policy: WorkspacePolicy,
  request: {
    readonly root: string;
    readonly decisions?: string | undefined;
    readonly base?: string | undefined;
  },
): { root: string; decisions?: string } {
  const root = policy.check(request.root, { label: 'path', base: request.base });
  const decisions = checkedDecisions(policy, root, request.decisions);
  return decisions === undefined ? { root } : { root, decisions };
}

/**
 * A workspace's decisions folder, resolved against its (checked, real) root:
 * inside the workspace (by real path: a symlink out of it does not count) it
 * may not exist yet; anywhere else it must pass the workspace rule itself.
 * Undefined when none is named.
 */
export function checkedDecisions(
  policy: WorkspacePolicy,
  root: string,
  decisions: string | undefined,
): string | undefined {
  if (decisions === undefined || decisions === '') return undefined;
  const absolute = path.resolve(root, decisions);
  if (inside(realPrefix(absolute), root)) return absolute;
  return policy.check(absolute, { label: 'decisions' });
}

/** `target` with its longest existing prefix taken through its symlinks (the rest, not yet created, as given). */
function realPrefix(target: string): string {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Throws WORKSPACE_INVALID when a daemon running as root would serve the
 * system folder the operator's own `--workspace` (or the directory it was
 * started in) leads to; the operator's choice is otherwise trusted.
 */
export function refuseSystemDefault(root: string, uid: number | undefined = process.getuid?.()): void {
  refuseSystemFolder(realPrefix(root), uid);
}

/**
 * The root a tool argument names, resolved like a connect resolves it; a
 * path that is no longer servable is returned as given, since it can still
 * name a binding made while it was.
 */
export function namedRoot(policy: WorkspacePolicy, named: string): string {
  try {
    return policy.check(named);
  } catch {
    return named;
  }
}
