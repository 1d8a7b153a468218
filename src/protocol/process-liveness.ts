/**
 * Whether a pid names a live process, and which live process holds a lock
 * file. Shared by the daemon's lock and the proxy (which may import nothing
 * but src/protocol).
 */
import fs from 'node:fs';

/** A zombie counts as dead: it only waits to be reaped (init reaps slowly on some VMs). */
export function isAliveProcess(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * The live pid holding a daemon lock file, if any: how the proxy tells "the
 * daemon I started is still starting" from "it died" or "another one drains".
 */
export function liveLockOwner(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockFile, 'utf8').trim(), 10);
    return isAliveProcess(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
