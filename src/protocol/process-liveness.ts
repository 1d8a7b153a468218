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
 * A live pid that does not keep the lock file open is not its holder (a
 * recycled pid, or a planted one).
 */
export function liveLockOwner(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockFile, 'utf8').trim(), 10);
    return isAliveProcess(pid) && holdsFileOpen(pid, lockFile) !== false ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether process `pid` has `file` open, read from Linux's /proc/<pid>/fd
 * (compared by device and inode, so a renamed or re-created file is another
 * file). This is what proves a lock is held: the holder keeps its lock file
 * open for as long as it lives, and the kernel closes it when it dies, so a
 * recycled pid, or any other live process, never seems to hold it.
 * Undefined when the platform or permissions cannot tell (no /proc, EACCES).
 */
export function holdsFileOpen(pid: number, file: string): boolean | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  let target: fs.Stats;
  try {
    target = fs.statSync(file);
  } catch {
    return false;
  }
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && fs.existsSync('/proc/self/fd')) return false;
    return undefined;
  }
  for (const fd of fds) {
    try {
      const open = fs.statSync(`/proc/${pid}/fd/${fd}`);
      if (open.ino === target.ino && open.dev === target.dev) return true;
    } catch {
      // closed meanwhile, or not a file we may stat
    }
  }
  return false;
}
