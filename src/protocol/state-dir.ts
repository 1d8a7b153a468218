/**
 * Where a user's daemon keeps its state, and the files in it. Shared by the
 * daemon and the proxy (which must find the socket without loading anything
 * else).
 */
import os from 'node:os';
import path from 'node:path';

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MOOR_STATE_DIR) return path.resolve(env.MOOR_STATE_DIR);
  if (env.XDG_STATE_HOME) return path.join(path.resolve(env.XDG_STATE_HOME), 'moor');
  return path.join(os.homedir(), '.local', 'state', 'moor');
}

export interface StatePaths {
  readonly dir: string;
  /** Unix socket, mode 0600. */
  readonly socket: string;
  /** Held by the one daemon serving this state dir. */
  readonly lock: string;
  /** JSON Incarnation of the daemon that holds the lock. */
  readonly incarnation: string;
  readonly log: string;
  /** SQLite store (tasks, bindings). */
  readonly database: string;
}

export function statePaths(dir: string = stateDir()): StatePaths {
  return {
    dir,
    socket: path.join(dir, 'daemon.sock'),
    lock: path.join(dir, 'daemon.lock'),
    incarnation: path.join(dir, 'incarnation.json'),
    log: path.join(dir, 'daemon.log'),
    database: path.join(dir, 'moor.db'),
  };
}
