/**
 * From parsed `moor daemon run` flags to what `runDaemon` takes: defaults
 * filled in, the HTTP address split, the bearer token read from its file.
 */
import fs from 'node:fs';
import { MoorError } from '../errors.js';
import { type DaemonRunFlags, DEFAULT_HTTP_ADDRESS } from '../protocol/daemon-flags.js';
import { parseStoreUrl } from '../store/open.js';
import type { DaemonRunOptions } from './daemon.js';
import { DAEMON_RUN_DEFAULTS, parseHostPort } from './daemon-flags.js';

function httpOption(flags: DaemonRunFlags): DaemonRunOptions['http'] {
  if (flags.http === undefined || flags.http === false) return undefined;
  const { host, port } = parseHostPort(flags.http === true ? DEFAULT_HTTP_ADDRESS : flags.http);
  if (flags.tokenFile === undefined) return { host, port };
  const token = fs.readFileSync(flags.tokenFile, 'utf8').trim();
  if (token.length === 0) throw new MoorError('TOKEN_INVALID', `the token file ${flags.tokenFile} is empty`);
  return { host, port, token };
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
    logLevel: flags.logLevel ?? process.env.MOOR_LOG_LEVEL ?? DAEMON_RUN_DEFAULTS.logLevel,
    stderrLog: flags.detached !== true,
    http: httpOption(flags),
    allowedRoots: flags.allowRoot,
    packs: flags.pack,
    taskRetentionMs: flags.taskRetentionMs,
    taskLeaseMs: flags.taskLeaseMs,
    store: storeOption(flags.store ?? process.env.MOOR_STORE),
    allowWrites: flags.allowWrites,
    httpDefaultSession: flags.httpDefaultSession,
  };
}
