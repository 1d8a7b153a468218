/**
 * Which moor version runs the daemon. A proxy newer than the daemon it
 * reaches asks it to hand over (a control hello 'handoff'): the old daemon
 * finishes its in-flight work, closes its connections, frees the lock and
 * starts this proxy's binary (which it verified) with its own flags; every
 * proxy reconnects to that through the ordinary replay. Meanwhile the handoff
 * marker keeps proxies older than the new version from starting theirs. An
 * older proxy never replaces a newer daemon: it says so once and uses it.
 */
import { CLI_PATH, connectDaemon } from '../protocol/daemon-link.js';
import { type HandoffMarker, readHandoffMarker } from '../protocol/handoff.js';
import { HELLO_VERSION, type Incarnation } from '../protocol/hello.js';
import { liveLockOwner } from '../protocol/process-liveness.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { compareVersions } from '../protocol/version.js';

/** How long to wait for a daemon that agreed to hand over to free the lock (its grace, plus closing). */
export const HANDOFF_WAIT_MS = 30_000;
/** Handoffs asked for by one connect loop at most: other proxies may keep starting older daemons. */
const MAX_HANDOFFS = 3;

export interface UpgradeOptions {
  readonly paths: StatePaths;
  /** This proxy's moor version. */
  readonly version: string;
  readonly warn: (line: string) => void;
  readonly now?: () => number;
  /** The live pid holding the daemon lock (default: read the lock file). */
  readonly lockOwner?: () => number | undefined;
  /** A fresh handoff marker in the state dir (default: read it). */
  readonly marker?: () => HandoffMarker | undefined;
  /** Asks the daemon on the socket to hand over; true when it agreed. */
  readonly askHandoff?: (socketPath: string, version: string) => Promise<boolean>;
}

/** Sends the control hello 'handoff'; true when the daemon agreed. */
export async function askHandoff(socketPath: string, version: string): Promise<boolean> {
  const outcome = await connectDaemon(socketPath, {
    moor: HELLO_VERSION,
    control: 'handoff',
    version,
    binary: CLI_PATH,
  });
  if (outcome.kind === 'connected') outcome.link.socket.destroy();
  return outcome.kind === 'connected';
}

export class DaemonUpgrade {
  readonly #options: UpgradeOptions;
  readonly #now: () => number;
  readonly #lockOwner: () => number | undefined;
  readonly #marker: () => HandoffMarker | undefined;
  /** The daemon that agreed to hand over: not used again, and waited for before starting another. */
  #handingOver: { readonly pid: number; readonly since: number } | undefined;
  /** The version the first handoff replaced, for the "upgraded" line. */
  #upgradedFrom: string | undefined;
  #handoffs = 0;
  #warnedNewer = false;
  #warnedCannot = false;
  #warnedStuck = false;

  constructor(options: UpgradeOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#lockOwner = options.lockOwner ?? (() => liveLockOwner(options.paths.lock));
    this.#marker = options.marker ?? (() => readHandoffMarker(options.paths.dir, this.#now()));
  }

  /**
   * A daemon answered the hello. True when this proxy must not use it: it
   * is handing over (now, or already) and a daemon of this proxy's version
   * is to take its place.
   */
  async replaces(incarnation: Incarnation): Promise<boolean> {
    const { version, warn, paths } = this.#options;
    if (this.#handingOver?.pid === incarnation.pid) return true;
    const order = compareVersions(version, incarnation.version);
    if (order !== undefined && order > 0 && this.#handoffs >= MAX_HANDOFFS && !this.#warnedStuck) {
      this.#warnedStuck = true;
      warn(
        `moor: the daemon keeps being started at version ${incarnation.version}, older than this moor ${version}; using it`,
      );
    }
    if (order !== undefined && order > 0 && this.#handoffs < MAX_HANDOFFS) {
      const agreed = await (this.#options.askHandoff ?? askHandoff)(paths.socket, version);
      if (agreed) {
        this.#handoffs++;
        this.#upgradedFrom ??= incarnation.version;
        this.#handingOver = { pid: incarnation.pid, since: this.#now() };
        return true;
      }
      if (!this.#warnedCannot) {
        this.#warnedCannot = true;
        warn(
          `moor: the running daemon is ${incarnation.version}, older than this moor ${version}, and cannot hand over; using it`,
        );
      }
    }
    this.#handingOver = undefined;
    if (this.#upgradedFrom !== undefined && order !== undefined && order <= 0) {
      warn(`moor: daemon upgraded ${this.#upgradedFrom} → ${incarnation.version}`);
      this.#upgradedFrom = undefined;
    }
    if (order !== undefined && order < 0 && !this.#warnedNewer) {
      this.#warnedNewer = true;
      warn(`moor: the running daemon is ${incarnation.version}, newer than this moor ${version}; using it`);
    }
    return false;
  }

  /**
   * True while this proxy must start no daemon: the one it asked to hand
   * over still holds the lock, or a handoff to a moor not older than this
   * one is under way (the daemon handing over starts the next one).
   */
  holdsStart(): boolean {
    const old = this.#handingOver;
    if (old !== undefined) {
      if (this.#lockOwner() === old.pid && this.#now() - old.since < HANDOFF_WAIT_MS) return true;
      this.#handingOver = undefined;
    }
    // A daemon that starts its successor itself (with its own flags) is raced by no proxy.
    const marker = this.#marker();
    const order = marker === undefined ? undefined : compareVersions(marker.to, this.#options.version);
    return order !== undefined && (order > 0 || (order === 0 && marker?.startsSuccessor === true));
  }

  /** The connect loop ended (connected, refused, down): the next one may ask again. */
  reset(): void {
    this.#handoffs = 0;
  }
}
