/**
 * The `moor daemon run` flags table (src/protocol/daemon-flags.ts) made
 * usable: the defaults, taken from the code that applies them; each flag's
 * help line; reading and checking a value; and the fast parser that `moor
 * daemon run` uses instead of commander. Light imports only: a daemon that
 * loses the start race parses its flags and exits.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_GRACE_MS, DEFAULT_LOG_LEVEL } from '../../daemon/defaults.js';
import { MoorError } from '../../errors.js';
import { DEFAULT_MAX_IN_FLIGHT } from '../../host/admission.js';
import { DEFAULT_LISTEN_MAX_MEMBERSHIPS, DEFAULT_LISTEN_MAX_URIS } from '../../host/events/listen-budget.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../../http/limits.js';
import {
  DAEMON_RUN_FLAGS,
  type DaemonFlagSpec,
  type DaemonRunDefaults,
  type DaemonRunFlags,
  DEFAULT_HTTP_ADDRESS,
} from '../../protocol/daemon-flags.js';
import { DEFAULT_MAX_PARKED } from '../../sessions/bindings.js';
import { DEFAULT_MAX_LOADED_ROOMS, DEFAULT_ROOM_KEEPALIVE_MS } from '../../sessions/rooms.js';
import { DEFAULT_SESSION_RETENTION_DAYS } from '../../store/session-store.js';
import { DEFAULT_LEASE_MS, DEFAULT_RETENTION_MS } from '../../tasks/defaults.js';

export const DAEMON_RUN_DEFAULTS: DaemonRunDefaults = {
  maxInFlight: DEFAULT_MAX_IN_FLIGHT,
  graceMs: DEFAULT_GRACE_MS,
  roomKeepaliveMs: DEFAULT_ROOM_KEEPALIVE_MS,
  listenMaxUris: DEFAULT_LISTEN_MAX_URIS,
  listenMaxMemberships: DEFAULT_LISTEN_MAX_MEMBERSHIPS,
  logLevel: DEFAULT_LOG_LEVEL,
  http: DEFAULT_HTTP_ADDRESS,
  maxConnections: DEFAULT_MAX_CONNECTIONS,
  headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  taskRetentionMs: DEFAULT_RETENTION_MS,
  maxParked: DEFAULT_MAX_PARKED,
  sessionTtlDays: DEFAULT_SESSION_RETENTION_DAYS,
  maxRooms: DEFAULT_MAX_LOADED_ROOMS,
  taskLeaseMs: DEFAULT_LEASE_MS,
};

/** The table, typed loosely for code that walks every flag alike. */
export const DAEMON_FLAG_SPECS: readonly DaemonFlagSpec[] = DAEMON_RUN_FLAGS;

/** A flag's help line, ending with its default when it has one. */
export function flagHelp(spec: DaemonFlagSpec): string {
  if (!spec.defaulted) return spec.help;
  const value = (DAEMON_RUN_DEFAULTS as Readonly<Record<string, string | number>>)[spec.key];
  return `${spec.help} (default ${value}${spec.defaultNote ? `; ${spec.defaultNote}` : ''})`;
}

/** `7410`, `localhost:7410`, `0.0.0.0:0`, `[::1]:7410` → host and port. */
export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535)
    throw new MoorError('USAGE', `--http expects [HOST:]PORT (e.g. 127.0.0.1:7410), got ${value}`);
  const host = match[1] ?? '127.0.0.1';
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

/** A whole number no smaller than `min`, or a USAGE error naming the flag. */
export function wholeNumber(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new MoorError('USAGE', `${flag} must be a whole number ≥ ${min}, got ${value}`);
  return n;
}

/** One value of `spec` as the command line gave it, checked; throws USAGE. */
export function readFlagValue(spec: DaemonFlagSpec, value: string): string | number {
  if (spec.kind === 'whole') return wholeNumber(`--${spec.name}`, value, spec.min ?? 0);
  if (spec.kind === 'address') parseHostPort(value);
  return value;
}

/**
 * `moor daemon run …` without commander. Unknown flags, missing values and
 * values out of bounds throw a USAGE error.
 */
export function parseDaemonRunArgv(argv: readonly string[]): DaemonRunFlags {
  // `--http` takes an optional value, which parseArgs cannot express: give a bare one the default.
  const args = argv.map((arg, i) =>
    arg === '--http' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('-'))
      ? `--http=${DEFAULT_HTTP_ADDRESS}`
      : arg,
  );
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const spec of DAEMON_FLAG_SPECS) {
    options[spec.name] = {
      type: spec.kind === 'switch' ? 'boolean' : 'string',
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(spec.repeatable ? { multiple: true } : {}),
    };
  }
  let values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  try {
    ({ values } = parseArgs({ args, options, strict: true }));
  } catch (error) {
    throw new MoorError('USAGE', (error as Error).message);
  }
  const flags: Record<string, unknown> = {};
  for (const spec of DAEMON_FLAG_SPECS) {
    const value = values[spec.name];
    if (spec.negated) flags[spec.key] = value === true ? false : undefined;
    else flags[spec.key] = typeof value === 'string' ? readFlagValue(spec, value) : value;
  }
  return flags as DaemonRunFlags;
}
