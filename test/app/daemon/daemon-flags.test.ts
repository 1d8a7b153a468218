/**
 * The `moor daemon run` flags are declared once: what `start` (and later the
 * proxy) passes to a detached daemon must parse back to the same flags, and
 * bad values are USAGE errors naming the flag.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DAEMON_RUN_DEFAULTS,
  flagHelp,
  parseDaemonRunArgv,
  parseHostPort,
} from '../../../src/app/daemon/daemon-flags.js';
import { DEFAULT_GRACE_MS } from '../../../src/daemon/daemon.js';
import { MoorError } from '../../../src/errors.js';
import { DEFAULT_MAX_IN_FLIGHT } from '../../../src/host/admission.js';
import {
  DEFAULT_LISTEN_MAX_MEMBERSHIPS,
  DEFAULT_LISTEN_MAX_URIS,
} from '../../../src/host/events/listen-budget.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../../../src/http/limits.js';

import {
  DAEMON_RUN_FLAGS,
  type DaemonRunFlags,
  DEFAULT_HTTP_ADDRESS,
  daemonRunArgs,
} from '../../../src/protocol/daemon-flags.js';
import { DEFAULT_ROOM_KEEPALIVE_MS } from '../../../src/sessions/rooms.js';
import { DEFAULT_LEASE_MS, DEFAULT_RETENTION_MS } from '../../../src/tasks/service.js';

function usageError(argv: string[]): MoorError {
  try {
    parseDaemonRunArgv(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(MoorError);
    return error as MoorError;
  }
  throw new MoorError('USAGE', `expected ${argv.join(' ')} to be refused`);
}

describe('daemonRunArgs', () => {
  it('round-trips every flag through the parser', () => {
    const flags: DaemonRunFlags = {
      workspace: '/srv/repo',
      decisions: 'docs/adr',
      maxInFlight: 7,
      graceMs: 0,
      roomKeepaliveMs: 1500,
      listenMaxUris: 3,
      listenMaxMemberships: 9,
      logLevel: 'debug',
      http: '[::1]:0',
      tokenFile: '/etc/moor/token',
      allowRoot: ['/srv', '/home/me/src'],
      pack: ['conformance', 'tasks-conformance'],
      taskRetentionMs: 60_000,
      allowWrites: ['/srv/repo', '/home/me/src'],
      maxParked: 2,
      sessionTtlDays: 3,
      maxRooms: 4,
      resetStore: true,
      taskLeaseMs: 3000,
      store: 'postgres://moor@db.example/moor',
      httpDefaultSession: 'test-session',
    };
    const argv = daemonRunArgs(flags);
    expect(parseDaemonRunArgv(argv)).toEqual({ ...flags, detached: undefined });
  });

  it('covers every flag in the table but detached', () => {
    const everything = daemonRunArgs({
      workspace: 'w',
      decisions: 'd',
      maxInFlight: 1,
      graceMs: 1,
      roomKeepaliveMs: 1,
      listenMaxUris: 1,
      listenMaxMemberships: 1,
      logLevel: 'info',
      http: true,
      maxConnections: 1,
      headersTimeoutMs: 1,
      requestTimeoutMs: 1,
      tokenFile: 't',
      token: false,
      allowRoot: ['r'],
      pack: ['p'],
      taskRetentionMs: 1,
      allowWrites: ['a'],
      maxParked: 1,
      sessionTtlDays: 1,
      maxRooms: 1,
      resetStore: true,
      taskLeaseMs: 3,
      store: 's',
      httpDefaultSession: 's',
      detached: true,
    });
    const named = everything.filter((a) => a.startsWith('--')).map((a) => a.slice(2));
    expect(named).toEqual(DAEMON_RUN_FLAGS.map((f) => f.name).filter((n) => n !== 'detached'));
  });

  it('passes a bare --http as the default address and paths as absolute ones', () => {
    const argv = daemonRunArgs({ http: true, tokenFile: 'token', allowRoot: ['a', '/b'] });
    expect(argv).toEqual([
      '--http',
      DEFAULT_HTTP_ADDRESS,
      '--token-file',
      path.resolve('token'),
      '--allow-root',
      path.resolve('a'),
      '--allow-root',
      '/b',
    ]);
    expect(parseDaemonRunArgv(argv).http).toBe(DEFAULT_HTTP_ADDRESS);
  });

  it('passes --no-token when the token is turned off, and reads it back so', () => {
    expect(daemonRunArgs({ token: false })).toEqual(['--no-token']);
    expect(daemonRunArgs({ token: true })).toEqual([]);
    expect(parseDaemonRunArgv(['--no-token']).token).toBe(false);
    expect(parseDaemonRunArgv([]).token).toBeUndefined();
  });

  it('leaves out flags not given, switches that are off and empty single values', () => {
    expect(daemonRunArgs({})).toEqual([]);
    expect(daemonRunArgs({ http: false, workspace: '', detached: true })).toEqual([]);
  });
});

describe('parseDaemonRunArgv', () => {
  it('reads short flags, repeated flags and a bare --http anywhere', () => {
    expect(
      parseDaemonRunArgv(['-w', '/r', '--http', '--pack', 'a', '--pack', 'b', '--detached']),
    ).toMatchObject({
      workspace: '/r',
      http: DEFAULT_HTTP_ADDRESS,
      pack: ['a', 'b'],
      detached: true,
    });
    expect(parseDaemonRunArgv(['--http']).http).toBe(DEFAULT_HTTP_ADDRESS);
    expect(parseDaemonRunArgv(['--http', '0.0.0.0:9']).http).toBe('0.0.0.0:9');
  });

  it('refuses whole numbers out of bounds, bad addresses and unknown flags as USAGE errors', () => {
    const belowOne = usageError(['--max-in-flight', '0']);
    expect(belowOne.code).toBe('USAGE');
    expect(belowOne.message).toBe('--max-in-flight must be a whole number ≥ 1, got 0');
    expect(usageError(['--grace-ms', '1.5']).message).toBe('--grace-ms must be a whole number ≥ 0, got 1.5');
    expect(usageError(['--task-retention-ms=-1']).message).toBe(
      '--task-retention-ms must be a whole number ≥ 0, got -1',
    );
    expect(usageError(['--http', 'host:99999']).message).toBe(
      '--http expects [HOST:]PORT (e.g. 127.0.0.1:7410), got host:99999',
    );
    const unknown = usageError(['--bogus']);
    expect(unknown.code).toBe('USAGE');
    expect(unknown.message).toMatch(/--bogus/);
  });

  it('parses [HOST:]PORT forms', () => {
    expect(parseHostPort('7410')).toEqual({ host: '127.0.0.1', port: 7410 });
    expect(parseHostPort('localhost:80')).toEqual({ host: 'localhost', port: 80 });
    expect(parseHostPort('[::1]:7410')).toEqual({ host: '::1', port: 7410 });
  });
});

describe('defaults', () => {
  it('come from the code that applies them, and the help shows them', () => {
    expect(DAEMON_RUN_DEFAULTS).toEqual({
      maxInFlight: DEFAULT_MAX_IN_FLIGHT,
      graceMs: DEFAULT_GRACE_MS,
      roomKeepaliveMs: DEFAULT_ROOM_KEEPALIVE_MS,
      listenMaxUris: DEFAULT_LISTEN_MAX_URIS,
      listenMaxMemberships: DEFAULT_LISTEN_MAX_MEMBERSHIPS,
      logLevel: 'info',
      http: DEFAULT_HTTP_ADDRESS,
      maxConnections: DEFAULT_MAX_CONNECTIONS,
      headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      taskRetentionMs: DEFAULT_RETENTION_MS,
      maxParked: 8,
      sessionTtlDays: 7,
      maxRooms: 32,
      taskLeaseMs: DEFAULT_LEASE_MS,
    });
    const retention = DAEMON_RUN_FLAGS.find((f) => f.name === 'task-retention-ms');
    const logLevel = DAEMON_RUN_FLAGS.find((f) => f.name === 'log-level');
    if (!retention || !logLevel) throw new MoorError('USAGE', 'flags missing from the table');
    expect(flagHelp(retention)).toBe(
      `how long a finished task stays readable (default ${DEFAULT_RETENTION_MS})`,
    );
    expect(flagHelp(logLevel)).toBe('trace, debug, info, warn, error (default info; env MOOR_LOG_LEVEL)');
  });
});
