/**
 * After a handoff the old daemon sees its successor up before it exits. For
 * a newer proxy's handoff it starts the successor itself, from the verified
 * binary and with its own command line, as soon as the handoff is agreed (it
 * loads while the old one drains, then takes the lock the moment it is free), so the HTTP address, the store and
 * the limits carry over. It hands the successor its HTTP listening socket
 * too: connections made while the old one drains and the new one starts wait
 * in that socket's queue and are answered by the successor, never refused.
 * For a takeover (a foreground `moor daemon run`) the
 * asker is the successor. Either way, when no successor answers in time the
 * old daemon starts its own binary again: a handoff never leaves the state
 * dir without a daemon.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { DAEMON_NODE_FLAGS, spawnDaemonProcess } from '../protocol/daemon-link.js';
import {
  HTTP_LISTENER_FD,
  HTTP_LISTENER_FD_ENV,
  readHandoffMarker,
  SUCCESSOR_OF_ENV,
  writeHandoffMarker,
} from '../protocol/handoff.js';
import { isAliveProcess } from '../protocol/process-liveness.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { readIncarnation } from './state.js';

/** How long a successor has to write its incarnation (start, bind HTTP, listen). */
export const SUCCESSOR_WAIT_MS = 20_000;
const POLL_MS = 50;

export interface Succession {
  readonly paths: StatePaths;
  /** The verified CLI entry of the successor, when this daemon starts it. */
  readonly binary?: string;
  /** This daemon's HTTP listening socket, handed to the successor it starts. */
  readonly httpListenerFd?: number | undefined;
  readonly log: (message: string) => void;
  readonly waitMs?: number;
  /** Starts this daemon again when no successor came up (default: its own binary, same command line). */
  readonly restart?: () => void;
}

/**
 * The node arguments that run `binary` with this daemon's own `daemon run …`
 * command line; never `--reset-store`, which was for the store as it was then.
 */
function sameCommandLine(binary: string): string[] {
  const args = process.argv.slice(2).filter((arg) => arg !== '--reset-store');
  return [...DAEMON_NODE_FLAGS, binary, ...args];
}

async function successorUp(paths: StatePaths, waitMs: number, exited: () => boolean): Promise<boolean> {
  const until = Date.now() + waitMs;
  while (Date.now() < until && !exited()) {
    const incarnation = readIncarnation(paths.incarnation);
    if (incarnation !== undefined && incarnation.pid !== process.pid) return true;
    await delay(POLL_MS);
  }
  return false;
}

/** A successor on its way: started (when this daemon starts it) as soon as the handoff is agreed. */
export interface Successor {
  /** Called once this daemon released everything; resolves when a daemon serves again. */
  settled(): Promise<void>;
}

/**
 * Starts the successor now, so that it loads while this daemon drains; it
 * waits for the lock (it knows this pid from its environment).
 */
export function beginSuccession(succession: Succession): Successor {
  const { paths, binary, log, httpListenerFd } = succession;
  let exited = false;
  let onExit: (() => void) | undefined;
  let successor: number | undefined;
  if (binary !== undefined)
    successor = spawnDaemonProcess(
      paths,
      sameCommandLine(binary),
      process.cwd(),
      () => {
        exited = true;
        onExit?.();
      },
      {
        [SUCCESSOR_OF_ENV]: String(process.pid),
        ...(httpListenerFd !== undefined ? { [HTTP_LISTENER_FD_ENV]: String(HTTP_LISTENER_FD) } : {}),
      },
      httpListenerFd,
    );
  return {
    async settled() {
      if (await successorUp(paths, succession.waitMs ?? SUCCESSOR_WAIT_MS, () => exited)) return;
      // One that is alive but never came up would keep the HTTP socket it was handed: the daemon
      // started again below could not bind the port.
      if (successor !== undefined && !exited && isAliveProcess(successor)) {
        log(`the successor (pid ${successor}) did not come up: stopping it`);
        const gone = new Promise<void>((resolve) => {
          onExit = resolve;
        });
        try {
          process.kill(successor, 'SIGKILL');
          await Promise.race([gone, delay(2000)]);
        } catch {
          // gone meanwhile
        }
      }
      log('no successor came up: starting this daemon again');
      // The marker stays, renewed, until the daemon started below listens (it removes it): a proxy
      // that found no daemon meanwhile would start one of its own, racing this start and, when its
      // own version is the one that cannot start, spending its restart budget on it.
      const marker = readHandoffMarker(paths.dir);
      if (marker !== undefined)
        writeHandoffMarker(paths.dir, { ...marker, at: Date.now(), startsSuccessor: true });
      if (succession.restart !== undefined) return succession.restart();
      const self = process.argv[1];
      if (self !== undefined) spawnDaemonProcess(paths, sameCommandLine(self), process.cwd());
    },
  };
}
