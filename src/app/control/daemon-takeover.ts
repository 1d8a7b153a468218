/**
 * A foreground `moor daemon run` that finds a daemon running takes over
 * from it instead of exiting: it asks for a handoff naming its own binary
 * (the running daemon reads the version there and refuses an older moor),
 * then waits for the lock the old daemon frees once its in-flight calls are
 * answered. Its proxies reconnect to the new daemon through the ordinary replay.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { acquireLock, type LockResult } from '../../daemon/lock.js';
import { MoorError } from '../../errors.js';
import { connectDaemon } from '../../protocol/daemon-link.js';
import { HELLO_VERSION } from '../../protocol/hello.js';
import type { StatePaths } from '../../protocol/state-dir.js';
import { IDENTITY } from '../identity.js';

const LOCK_POLL_MS = 25;
/** The old daemon's grace for in-flight calls (30 s by default) and its closing, with room to spare. */
export const TAKEOVER_WAIT_MS = 60_000;

export type Takeover =
  | { readonly kind: 'acquired'; readonly lock: Extract<LockResult, { acquired: true }> }
  | { readonly kind: 'refused'; readonly error: MoorError };

/** Takes the lock from the running daemon; `binary` and `version` are this moor's. */
export async function takeOverDaemon(
  paths: StatePaths,
  binary: string,
  version = IDENTITY.version,
  waitMs = TAKEOVER_WAIT_MS,
): Promise<Takeover> {
  const outcome = await connectDaemon(paths.socket, {
    moor: HELLO_VERSION,
    control: 'handoff',
    version,
    binary,
    takeover: true,
  });
  if (outcome.kind === 'connected') outcome.link.socket.destroy();
  else if (outcome.kind === 'refused')
    return { kind: 'refused', error: new MoorError('HANDOFF_REFUSED', outcome.message) };
  // Agreed, or no daemon answers any more (it went between the lock and the hello): the lock decides.
  return waitForLock(paths, waitMs);
}

/** Polls for the lock the daemon handing over frees once its in-flight calls are answered. */
export async function waitForLock(paths: StatePaths, waitMs = TAKEOVER_WAIT_MS): Promise<Takeover> {
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = acquireLock(paths.lock);
    if (lock.acquired) return { kind: 'acquired', lock };
    if (Date.now() >= until)
      return {
        kind: 'refused',
        error: new MoorError(
          'HANDOFF_REFUSED',
          `the daemon (pid ${lock.ownerPid}) did not hand over in time`,
        ),
      };
    await delay(LOCK_POLL_MS);
  }
}
