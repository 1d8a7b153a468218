/**
 * From parsed `moor daemon run` flags to what `runDaemon` takes: defaults
 * filled in, the HTTP address split, the bearer token read from its file
 * (checked: owner-only and long enough).
 */
import path from 'node:path';
import { MoorError } from '../../errors.js';
import { type DaemonRunFlags, DEFAULT_HTTP_ADDRESS } from '../../protocol/daemon-flags.js';
import { parseStoreUrl } from '../../store/open.js';
import type { DaemonRunOptions } from '../daemon.js';
import { DAEMON_RUN_DEFAULTS, parseHostPort } from './daemon-flags.js';
import { readTokenFile } from './http-token.js';

function httpOption(flags: DaemonRunFlags): DaemonRunOptions['http'] {
  if (flags.http === undefined || flags.http === false) return undefined;
  const { host, port } = parseHostPort(flags.http === true ? DEFAULT_HTTP_ADDRESS : flags.http);
  const limits = {
    maxConnections: flags.maxConnections ?? DAEMON_RUN_DEFAULTS.maxConnections,
    headersTimeoutMs: flags.headersTimeoutMs ?? DAEMON_RUN_DEFAULTS.headersTimeoutMs,
    requestTimeoutMs: flags.requestTimeoutMs ?? DAEMON_RUN_DEFAULTS.requestTimeoutMs,
  };
  if (flags.token === false) {
    if (flags.tokenFile !== undefined)
      throw new MoorError('USAGE', '--no-token and --token-file contradict each other');
    return { host, port, ...limits, noToken: true };
  }
  // Without --token-file the daemon uses its state dir's token (runDaemon reads or creates it).
  if (flags.tokenFile === undefined) return { host, port, ...limits };
  return {
    host,
    port,
    ...limits,
    token: readTokenFile(flags.tokenFile),
    tokenFile: path.resolve(flags.tokenFile),
  };
}

/** The store URL, checked now: a malformed one is a USAGE error before any daemon starts. */
function storeOption(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  parseStoreUrl(url, '/');
  return url;
}

/** Throws when the HTTP address or store URL is malformed or the token file unusable. */
export function daemonRunOptions(flags: DaemonRunFlags): DaemonRunOptions {
  return {
    workspace: flags.workspace,
    decisions: flags.decisions,
    maxInFlight: flags.maxInFlight ?? DAEMON_RUN_DEFAULTS.maxInFlight,
    graceMs: flags.graceMs ?? DAEMON_RUN_DEFAULTS.graceMs,
    roomKeepAliveMs: flags.roomKeepaliveMs ?? DAEMON_RUN_DEFAULTS.roomKeepaliveMs,
    listenMaxUris: flags.listenMaxUris ?? DAEMON_RUN_DEFAULTS.listenMaxUris,
    listenMaxMemberships: flags.listenMaxMemberships ?? DAEMON_RUN_DEFAULTS.listenMaxMemberships,
    logLevel: flags.logLevel ?? process.env.MOOR_LOG_LEVEL ?? DAEMON_RUN_DEFAULTS.logLevel,
    stderrLog: flags.detached !== true,
    http: httpOption(flags),
    allowedRoots: flags.allowRoot,
    packs: flags.pack,
    taskRetentionMs: flags.taskRetentionMs,
    writeRoots: flags.allowWrites,
    maxParked: flags.maxParked,
    sessionTtlDays: flags.sessionTtlDays,
    maxRooms: flags.maxRooms,
    taskLeaseMs: flags.taskLeaseMs,
    store: storeOption(flags.store ?? process.env.MOOR_STORE),
    httpDefaultSession: flags.httpDefaultSession,
    resetStore: flags.resetStore,
  };
}
