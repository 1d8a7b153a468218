/**
 * The handoff marker: a daemon that agreed to hand over to a newer moor
 * writes `handoff.json` in the state dir before it closes any connection, and
 * the daemon that starts next removes it. A proxy that finds a fresh marker
 * naming a version newer than its own starts no daemon of its own: the newer
 * proxy that asked for the handoff starts it, and everyone reconnects to that.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Set, to the old daemon's pid, in the environment of the successor it
 * starts: that `daemon run` waits for the old one's lock instead of leaving.
 */
export const SUCCESSOR_OF_ENV = 'MOOR_SUCCESSOR_OF';

/**
 * Set in the successor's environment when the old daemon hands it its HTTP
 * listening socket (as this descriptor number): the successor listens on
 * that socket instead of binding the port, so during the handoff a client's
 * connection waits in the socket's queue for the successor and is never
 * refused.
 */
export const HTTP_LISTENER_FD_ENV = 'MOOR_HTTP_LISTENER_FD';
/** The descriptor the listening socket has in the successor (after stdin, stdout, stderr). */
export const HTTP_LISTENER_FD = 3;

/** A marker older than this is left over from a handoff that never finished: ignored. */
export const HANDOFF_MARKER_TTL_MS = 30_000;

export interface HandoffMarker {
  /** The pid of the daemon handing over. */
  readonly pid: number;
  readonly from: string;
  readonly to: string;
  /** Epoch milliseconds. */
  readonly at: number;
  /**
   * The daemon handing over starts (or, for a takeover, waits for) its
   * successor itself, so not even a proxy of the `to` version starts one.
   * Daemons from before verified handoffs write no such field.
   */
  readonly startsSuccessor?: boolean;
}

export function handoffFile(stateDir: string): string {
  return path.join(stateDir, 'handoff.json');
}

export function writeHandoffMarker(stateDir: string, marker: HandoffMarker): void {
  const file = handoffFile(stateDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(marker)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** The marker, when there is a fresh one. */
export function readHandoffMarker(stateDir: string, now = Date.now()): HandoffMarker | undefined {
  try {
    const marker = JSON.parse(fs.readFileSync(handoffFile(stateDir), 'utf8')) as HandoffMarker;
    if (typeof marker.to !== 'string' || typeof marker.at !== 'number') return undefined;
    return now - marker.at < HANDOFF_MARKER_TTL_MS ? marker : undefined;
  } catch {
    return undefined;
  }
}

export function clearHandoffMarker(stateDir: string): void {
  try {
    fs.unlinkSync(handoffFile(stateDir));
  } catch {
    // none
  }
}
