/**
 * Whether a process is alive, and who holds the daemon lock: what the proxy
 * needs to tell "the daemon I started is still starting" from "it died".
 * (src/daemon/lock.ts has the daemon's side; the proxy may not import it.)
 */
import fs from 'node:fs';

/** A zombie is dead: it only waits to be reaped. */
export function isAlive(pid: number): boolean {
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

/** The live pid holding the lock file, if any. */
export function liveLockOwner(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockFile, 'utf8').trim(), 10);
    return isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
