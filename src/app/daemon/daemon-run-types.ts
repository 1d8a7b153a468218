/**
 * What `moor daemon run` is started with (from the flags, through
 * daemon-run-options.ts) and what a started daemon hands back to the CLI.
 */

import type { Logger } from 'pino';
import type { RunningDaemon } from '../../daemon/daemon.js';
import type { StoreOptions } from '../commands/options.js';

export interface DaemonRunOptions extends StoreOptions {
  /** Default workspace for a hello that names none. */
  readonly workspace?: string | undefined;
  readonly decisions?: string | undefined;
  readonly maxInFlight: number;
  readonly graceMs: number;
  readonly roomKeepAliveMs: number;
  /** Resource URIs one listen stream may watch (`--listen-max-uris`). */
  readonly listenMaxUris?: number | undefined;
  /** Resource URIs all listen streams may watch together (`--listen-max-memberships`). */
  readonly listenMaxMemberships?: number | undefined;
  readonly logLevel: string;
  /** Also log to stderr (foreground `run` in a terminal). */
  readonly stderrLog: boolean;
  /** Serve Streamable HTTP too (`--http [HOST:]PORT`). */
  readonly http?:
    | {
        readonly host: string;
        readonly port: number;
        /** From --token-file; when absent, the state dir's http.token unless `noToken`. */
        readonly token?: string | undefined;
        /** The --token-file the token was read from (a 401 and the login link name it). */
        readonly tokenFile?: string | undefined;
        /** `--no-token`: loopback HTTP open to every local user. */
        readonly noToken?: boolean | undefined;
        /** HTTP connections held at once (`--max-connections`), and the slow-client timeouts. */
        readonly maxConnections?: number | undefined;
        readonly headersTimeoutMs?: number | undefined;
        readonly requestTimeoutMs?: number | undefined;
      }
    | undefined;
  /**
   * Directories an HTTP request's Moor-Workspace may name (it must be inside one).
   * Default: any directory owned by the daemon's user.
   */
  readonly allowedRoots?: readonly string[] | undefined;
  /** How long a finished task stays readable (`--task-retention-ms`, default 10 min). */
  readonly taskRetentionMs?: number | undefined;
  /**
   * Where tasks and session bindings live (`--store`, else env MOOR_STORE): default the SQLite file
   * `moor.db` in the state dir; `postgres://…` shares them between several daemons.
   */
  readonly store?: string | undefined;
  /** How long a running task's lease lasts (`--task-lease-ms`, default 15 s). */
  readonly taskLeaseMs?: number | undefined;
  /** Extra packs by name (`--pack`, env MOOR_PACKS): `tasks-conformance`. */
  readonly packs?: readonly string[] | undefined;
  /** Workspaces where tools that write into them run (`--allow-writes DIR`, repeatable). */
  readonly writeRoots?: readonly string[] | undefined;
  /** Parked workspaces a session keeps before evicting the least recently used (`--max-parked`). */
  readonly maxParked?: number | undefined;
  /** Stored sessions unused this many days are swept (`--session-ttl-days`). */
  readonly sessionTtlDays?: number | undefined;
  /** At most this many rooms stay loaded past their keep-alive (`--max-rooms`). */
  readonly maxRooms?: number | undefined;
  /** Session key for HTTP requests without Moor-Session (`--http-default-session`; test set-ups). */
  readonly httpDefaultSession?: string | undefined;
}

export interface DaemonProcess {
  readonly daemon: RunningDaemon;
  readonly logger: Logger;
  /** Flushes and closes the log file (last thing before exit). */
  closeLog(): void;
  /** Where clients reach this daemon: for the foreground banner. */
  readonly httpUrl: string | null;
  /** The file holding the HTTP bearer token, when the token is the state dir's. */
  readonly httpTokenFile: string | null;
  /** The bearer token HTTP clients must send; null without HTTP or with --no-token. */
  readonly httpToken: string | null;
  readonly workspace: string;
}
