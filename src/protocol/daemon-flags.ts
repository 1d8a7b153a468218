/**
 * The flags of `moor daemon run` (and of `start` / `restart`, which pass them
 * on), declared once. Everything else is derived from this table: the flags'
 * type, the fast parser and commander's options (src/app/daemon/daemon-flags.ts,
 * src/cli/daemon-options.ts), the help text, and the argv a starter hands to
 * a detached `run` (`daemonRunArgs`).
 *
 * Pure data and node built-ins only: the proxy spawns the daemon and must not
 * load anything heavier. Numeric defaults belong to the code that applies
 * them (the admission gate, the daemon, the rooms, the task service), so this
 * table says only *that* a flag has one; `DaemonRunDefaults` names them and
 * src/app/daemon/daemon-flags.ts fills them in from their owners.
 */
import path from 'node:path';

/** Where `--http` without a value listens: loopback, moor's port. */
export const DEFAULT_HTTP_ADDRESS = '127.0.0.1:7410';

/**
 * How a flag's value is read: `text` as given, `path` made absolute when passed
 * on to a detached daemon, `whole` a whole number with a lower bound, `switch`
 * no value, `address` an optional `[HOST:]PORT`.
 */
export type DaemonFlagKind = 'text' | 'path' | 'whole' | 'switch' | 'address';

export interface DaemonFlagSpec {
  /** The property in `DaemonRunFlags` (commander's camel case of `name`). */
  readonly key: string;
  /** The long flag, without `--`. */
  readonly name: string;
  readonly short?: string;
  readonly kind: DaemonFlagKind;
  /** What the help calls the value (`<dir>`, `[host:port]`). */
  readonly value?: string;
  /** The smallest value a `whole` flag accepts. */
  readonly min?: number;
  /** Given once per value (`--pack a --pack b`). */
  readonly repeatable?: boolean;
  /** Its default lives with the code that applies it (see `DaemonRunDefaults`). */
  readonly defaulted?: boolean;
  /** A remark after the default in the help (`env MOOR_LOG_LEVEL`). */
  readonly defaultNote?: string;
  /**
   * A `no-` switch (`--no-token`): its key names what it turns off and is
   * false when given, as commander has it.
   */
  readonly negated?: boolean;
  /** Accepted by `run` only: `start` and `restart` always pass it themselves. */
  readonly runOnly?: boolean;
  readonly help: string;
}

export const DAEMON_RUN_FLAGS = [
  {
    key: 'workspace',
    name: 'workspace',
    short: 'w',
    kind: 'text',
    value: '<dir>',
    help: 'workspace for clients that name none (default: the enclosing git root)',
  },
  {
    key: 'decisions',
    name: 'decisions',
    short: 'd',
    kind: 'text',
    value: '<dir>',
    help: 'decisions folder for that workspace',
  },
  {
    key: 'maxInFlight',
    name: 'max-in-flight',
    kind: 'whole',
    min: 1,
    value: '<n>',
    defaulted: true,
    help: 'admission limit across socket and HTTP',
  },
  {
    key: 'graceMs',
    name: 'grace-ms',
    kind: 'whole',
    min: 0,
    value: '<ms>',
    defaulted: true,
    help: 'how long shutdown waits for in-flight requests',
  },
  {
    key: 'roomKeepaliveMs',
    name: 'room-keepalive-ms',
    kind: 'whole',
    min: 0,
    value: '<ms>',
    defaulted: true,
    help: 'how long an unused workspace stays loaded',
  },
  {
    key: 'listenMaxUris',
    name: 'listen-max-uris',
    kind: 'whole',
    min: 1,
    value: '<n>',
    defaulted: true,
    help: 'resource URIs one listen stream may watch (more: refused, HTTP 429)',
  },
  {
    key: 'listenMaxMemberships',
    name: 'listen-max-memberships',
    kind: 'whole',
    min: 1,
    value: '<n>',
    defaulted: true,
    help: 'resource URIs all listen streams of the daemon may watch together',
  },
  {
    key: 'logLevel',
    name: 'log-level',
    kind: 'text',
    value: '<level>',
    defaulted: true,
    defaultNote: 'env MOOR_LOG_LEVEL',
    help: 'trace, debug, info, warn, error',
  },
  {
    key: 'http',
    name: 'http',
    kind: 'address',
    value: '[host:port]',
    defaulted: true,
    help: 'also serve Streamable HTTP at /mcp',
  },
  {
    key: 'maxConnections',
    name: 'max-connections',
    kind: 'whole',
    min: 1,
    value: '<n>',
    defaulted: true,
    defaultNote: 'lowered to half the open-files limit',
    help: 'HTTP connections held at once; more are refused',
  },
  {
    key: 'headersTimeoutMs',
    name: 'headers-timeout-ms',
    kind: 'whole',
    min: 1,
    value: '<ms>',
    defaulted: true,
    help: 'how long an HTTP client may take to send its headers',
  },
  {
    key: 'requestTimeoutMs',
    name: 'request-timeout-ms',
    kind: 'whole',
    min: 1,
    value: '<ms>',
    defaulted: true,
    help: 'how long an HTTP client may take to send a whole request',
  },
  {
    key: 'tokenFile',
    name: 'token-file',
    kind: 'path',
    value: '<file>',
    help: "bearer token clients must send (0600, at least 32 characters; default: the state dir's http.token)",
  },
  {
    key: 'token',
    name: 'no-token',
    kind: 'switch',
    negated: true,
    help: 'serve loopback HTTP without a bearer token: every local user can then call the tools',
  },
  {
    key: 'allowRoot',
    name: 'allow-root',
    kind: 'path',
    value: '<dir>',
    repeatable: true,
    help: 'a directory HTTP clients may name in Moor-Workspace (repeatable; default: any directory you own)',
  },
  {
    key: 'pack',
    name: 'pack',
    kind: 'text',
    value: '<name>',
    repeatable: true,
    help: 'serve this pack besides decisions (repeatable; conformance = the MCP conformance fixtures, tests only)',
  },
  {
    key: 'taskRetentionMs',
    name: 'task-retention-ms',
    kind: 'whole',
    min: 0,
    value: '<ms>',
    defaulted: true,
    help: 'how long a finished task stays readable',
  },
  {
    key: 'taskLeaseMs',
    name: 'task-lease-ms',
    kind: 'whole',
    min: 3,
    value: '<ms>',
    defaulted: true,
    help: 'how long a running task stays owned by its daemon without a renewal (renewed every third)',
  },
  {
    key: 'store',
    name: 'store',
    kind: 'text',
    value: '<url>',
    help: 'where tasks and session bindings live: postgres://… to share them between daemons (default: moor.db in the state dir; env MOOR_STORE)',
  },
  {
    key: 'allowWrites',
    name: 'allow-writes',
    kind: 'path',
    value: '<dir>',
    repeatable: true,
    help: 'a workspace (or a directory of them) where tools that write run, e.g. draft_decision (repeatable)',
  },
  {
    key: 'maxParked',
    name: 'max-parked',
    kind: 'whole',
    min: 0,
    value: '<n>',
    defaulted: true,
    help: 'parked workspaces a session keeps before the least recently used is evicted',
  },
  {
    key: 'sessionTtlDays',
    name: 'session-ttl-days',
    kind: 'whole',
    min: 1,
    value: '<days>',
    defaulted: true,
    help: 'stored sessions unused this long are swept',
  },
  {
    key: 'maxRooms',
    name: 'max-rooms',
    kind: 'whole',
    min: 1,
    value: '<n>',
    defaulted: true,
    help: 'workspaces kept loaded when unused (the reaper unloads the least recently used beyond it)',
  },
  {
    key: 'httpDefaultSession',
    name: 'http-default-session',
    kind: 'text',
    value: '<key>',
    help: 'session key for HTTP requests without Moor-Session (test set-ups)',
  },
  {
    key: 'resetStore',
    name: 'reset-store',
    kind: 'switch',
    help: 'move a corrupt moor.db aside (moor.db.corrupt-<time>, with its -wal/-shm) and start with an empty store',
  },
  {
    key: 'detached',
    name: 'detached',
    kind: 'switch',
    runOnly: true,
    help: 'log to the file only (used by start)',
  },
] as const satisfies readonly DaemonFlagSpec[];

type Spec = (typeof DAEMON_RUN_FLAGS)[number];

type ValueOf<S extends Spec> = S extends { readonly repeatable: true }
  ? readonly string[]
  : S['kind'] extends 'whole'
    ? number
    : S['kind'] extends 'switch'
      ? boolean
      : S['kind'] extends 'address'
        ? // true when given without a value: the default address
          string | boolean
        : string;

/** Parsed flags of `moor daemon run`; a flag not given is undefined. */
export type DaemonRunFlags = { readonly [S in Spec as S['key']]?: ValueOf<S> | undefined };

/** The flags whose default their owner holds, and those defaults' values. */
export type DaemonRunDefaults = {
  readonly [S in Spec as S extends { readonly defaulted: true } ? S['key'] : never]-?: Exclude<
    ValueOf<S>,
    boolean
  >;
};

/**
 * The argv (after `moor daemon run`) that starts a daemon with these flags.
 * Relative paths are resolved against this process's directory, since the
 * detached daemon may run elsewhere; a bare `--http` is passed as the default
 * address. `detached` is left to the caller, which always adds it. An
 * empty single value is dropped, as if not given.
 */
export function daemonRunArgs(flags: DaemonRunFlags): string[] {
  const args: string[] = [];
  const values = flags as Readonly<Record<string, unknown>>;
  for (const spec of DAEMON_RUN_FLAGS as readonly DaemonFlagSpec[]) {
    const value = values[spec.key];
    if (spec.negated) {
      if (value === false) args.push(`--${spec.name}`);
      continue;
    }
    if (value === undefined || value === false || spec.runOnly) continue;
    const flag = `--${spec.name}`;
    if (spec.kind === 'switch') args.push(flag);
    else if (spec.kind === 'address') args.push(flag, value === true ? DEFAULT_HTTP_ADDRESS : String(value));
    else if (spec.kind === 'whole') args.push(flag, String(value));
    else if (!spec.repeatable) {
      if (value !== '')
        args.push(flag, spec.kind === 'path' ? path.resolve(value as string) : (value as string));
    } else {
      for (const one of value as readonly string[])
        args.push(flag, spec.kind === 'path' ? path.resolve(one) : one);
    }
  }
  return args;
}
