/**
 * Whether a process is alive, and who holds the daemon lock: what the proxy
 * needs to tell "the daemon I started is still starting" from "it died".
 * (src/daemon/lock.ts has the daemon's side; both share src/protocol/process-liveness.ts.)
 */
import fs from 'node:fs';
import { isAliveProcess } from '../protocol/process-liveness.js';

/** A zombie is dead: it only waits to be reaped. */
export const isAlive = isAliveProcess;

/** The live pid holding the lock file, if any. */
export function liveLockOwner(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockFile, 'utf8').trim(), 10);
    return isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
