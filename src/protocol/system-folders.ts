/**
 * Folders a daemon running as root never serves as a workspace: the file
 * system root and the operating system's own trees. Such a daemon owns them
 * all, so the usual "owned by the daemon's user" rule would let any client
 * that reaches it read /etc or /root through `Moor-Workspace` or a hello.
 * Here, below every layer, because the sessions refuse them and a proxy that
 * answers for a daemon it started must know the daemon would not.
 */
import path from 'node:path';

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
