/**
 * Folders a daemon running as root never serves as a workspace: the file
 * system root and the operating system's own trees. Such a daemon owns them
 * all, so the usual "owned by the daemon's user" rule would let any client
 * that reaches it read /etc or /root through `Moor-Workspace` or a hello.
 */
import path from 'node:path';
import { MoorError } from '../errors.js';

/** Refused with everything below them. */
const SYSTEM_TREES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  '/var',
];
/** Refused themselves only: projects may live below them. */
const SYSTEM_FOLDERS = ['/', '/root', '/home'];

/** True when `root` (absolute, resolved) is a system folder or inside a system tree. */
export function isSystemFolder(root: string): boolean {
  const resolved = path.resolve(root);
  if (SYSTEM_FOLDERS.includes(resolved)) return true;
  return SYSTEM_TREES.some((tree) => resolved === tree || resolved.startsWith(`${tree}/`));
}

/** Throws WORKSPACE_INVALID when this process runs as root and `root` is a system folder. */
export function refuseSystemFolder(root: string, uid: number | undefined = process.getuid?.()): void {
  if (uid === 0 && isSystemFolder(root)) {
    throw new MoorError(
      'WORKSPACE_INVALID',
      `workspace ${root} is a system folder: the daemon runs as root and never serves one as a workspace.`,
    );
  }
}
