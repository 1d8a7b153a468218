/**
 * Whether a pid names a live process. Shared by the daemon's lock and the
 * proxy (which may import nothing but src/protocol).
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
