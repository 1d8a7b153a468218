/**
 * `moor daemon run|start|stop|restart|status`. `run` takes the state dir's
 * lock before loading the app, so a starter that loses the race exits at
 * once and cheaply (many proxies may start one at the same moment).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Command } from 'commander';
import { acquireLock, isAliveProcess } from '../daemon/lock.js';
import { ensureStateDir } from '../daemon/state.js';
import { DEFAULT_MAX_IN_FLIGHT } from '../host/admission.js';
import { connectDaemon, spawnDaemon } from '../protocol/daemon-link.js';
import { HELLO_VERSION, type HelloReply } from '../protocol/hello.js';
import { type StatePaths, statePaths } from '../protocol/state-dir.js';
import { connectHelp } from './connect-help.js';

const DEFAULT_GRACE_MS = 10_000;
const DEFAULT_ROOM_KEEPALIVE_MS = 30_000;
const START_TIMEOUT_MS = 10_000;
export const DEFAULT_HTTP = '127.0.0.1:7410';

export interface DaemonRunFlags {
  readonly workspace?: string | undefined;
  readonly decisions?: string | undefined;
  readonly maxInFlight?: number | undefined;
  readonly graceMs?: number | undefined;
  readonly roomKeepaliveMs?: number | undefined;
  readonly logLevel?: string | undefined;
  /** Started by `start` or a proxy: output already goes to the log file. */
  readonly detached?: boolean | undefined;
  /** `--http [HOST:]PORT`; true when given without a value. */
  readonly http?: string | boolean | undefined;
  readonly tokenFile?: string | undefined;
  readonly allowRoot?: readonly string[] | undefined;
  /** `--pack NAME`, repeatable: packs served besides decisions (conformance, tasks-conformance). */
  readonly pack?: readonly string[] | undefined;
  readonly taskRetentionMs?: number | undefined;
  readonly allowWrites?: boolean | undefined;
  readonly httpDefaultSession?: string | undefined;
}

/** `7410`, `localhost:7410`, `0.0.0.0:0`, `[::1]:7410` → host and port. */
export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535)
    throw new Error(`--http expects [HOST:]PORT (e.g. 127.0.0.1:7410), got ${value}`);
  const host = match[1] ?? '127.0.0.1';
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

function httpOption(flags: DaemonRunFlags): { host: string; port: number; token?: string } | undefined {
  if (flags.http === undefined || flags.http === false) return undefined;
  const { host, port } = parseHostPort(flags.http === true ? DEFAULT_HTTP : flags.http);
  if (flags.tokenFile === undefined) return { host, port };
  const token = fs.readFileSync(flags.tokenFile, 'utf8').trim();
  if (token.length === 0) throw new Error(`the token file ${flags.tokenFile} is empty`);
  return { host, port, token };
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function complain(line: string): void {
  process.stderr.write(`moor: ${line}\n`);
}

function wholeNumber(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be a whole number ≥ ${min}, got ${value}`);
  return n;
}

type AppModule = typeof import('../app/daemon.js');

/**
 * The app, from dist/bundle/daemon.js (built by scripts/bundle-daemon.mjs:
 * one ESM graph of a few modules instead of ~190, ~130 ms less of a cold
 * start) when that bundle is at least as new as dist/app/daemon.js, else
 * from dist/app (a tsc-only build, or running from source).
 */
async function loadApp(): Promise<AppModule> {
  const app = new URL('../app/daemon.js', import.meta.url);
  const bundle = new URL('../bundle/daemon.js', import.meta.url);
  try {
    if (fs.statSync(bundle).mtimeMs >= fs.statSync(app).mtimeMs)
      return (await import(bundle.href)) as AppModule;
  } catch {
    // no bundle (or no compiled app next to it): the unbundled app
  }
  return import('../app/daemon.js');
}

/** The foreground daemon. Resolves never: exits the process when stopped. */
export async function runDaemonCommand(flags: DaemonRunFlags): Promise<void> {
  const paths = statePaths();
  ensureStateDir(paths.dir);
  const lock = acquireLock(paths.lock);
  if (!lock.acquired) {
    complain(`a daemon is already running for ${paths.dir} (pid ${lock.ownerPid})`);
    process.exit(0);
  }
  const { runDaemon } = await loadApp();
  let running: Awaited<ReturnType<typeof runDaemon>>;
  try {
    const http = httpOption(flags);
    running = await runDaemon(
      paths,
      {
        workspace: flags.workspace,
        decisions: flags.decisions,
        maxInFlight: flags.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
        graceMs: flags.graceMs ?? DEFAULT_GRACE_MS,
        roomKeepAliveMs: flags.roomKeepaliveMs ?? DEFAULT_ROOM_KEEPALIVE_MS,
        logLevel: flags.logLevel ?? process.env.MOOR_LOG_LEVEL ?? 'info',
        stderrLog: flags.detached !== true,
        http,
        allowedRoots: flags.allowRoot,
        packs: flags.pack,
        taskRetentionMs: flags.taskRetentionMs,
        allowWrites: flags.allowWrites,
        httpDefaultSession: flags.httpDefaultSession,
      },
      lock.release,
    );
  } catch (error) {
    lock.release();
    complain(`the daemon could not start: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  }
  const { daemon } = running;
  if (flags.detached !== true) {
    const bin = fileURLToPath(new URL('./main.js', import.meta.url));
    process.stderr.write(connectHelp({ httpUrl: running.httpUrl, workspace: running.workspace, bin }));
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void daemon.shutdown(signal));
  process.on('SIGHUP', () => {});
  process.on('uncaughtException', (error) => {
    running.logger.fatal({ err: error }, 'uncaught exception');
    void daemon.shutdown('uncaught exception');
  });
  await daemon.stopped;
  running.closeLog();
  process.exit(0);
}

/** `moor daemon run …` parsed without commander (the fast path from main.ts). */
export async function runDaemonFromArgv(argv: readonly string[]): Promise<void> {
  let flags: DaemonRunFlags;
  try {
    // `--http` takes an optional value, which parseArgs cannot express: give a bare one the default.
    const args = argv.map((a, i) =>
      a === '--http' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('-'))
        ? `--http=${DEFAULT_HTTP}`
        : a,
    );
    const { values } = parseArgs({
      args,
      options: {
        workspace: { type: 'string', short: 'w' },
        decisions: { type: 'string', short: 'd' },
        'max-in-flight': { type: 'string' },
        'grace-ms': { type: 'string' },
        'room-keepalive-ms': { type: 'string' },
        'log-level': { type: 'string' },
        detached: { type: 'boolean' },
        http: { type: 'string' },
        'token-file': { type: 'string' },
        'allow-root': { type: 'string', multiple: true },
        pack: { type: 'string', multiple: true },
        'task-retention-ms': { type: 'string' },
        'allow-writes': { type: 'boolean' },
        'http-default-session': { type: 'string' },
      },
      strict: true,
    });
    flags = {
      workspace: values.workspace,
      decisions: values.decisions,
      maxInFlight: wholeNumber('--max-in-flight', values['max-in-flight'], 1),
      graceMs: wholeNumber('--grace-ms', values['grace-ms'], 0),
      roomKeepaliveMs: wholeNumber('--room-keepalive-ms', values['room-keepalive-ms'], 0),
      logLevel: values['log-level'],
      detached: values.detached,
      http: values.http,
      tokenFile: values['token-file'],
      allowRoot: values['allow-root'],
      pack: values.pack,
      taskRetentionMs: wholeNumber('--task-retention-ms', values['task-retention-ms'], 0),
      allowWrites: values['allow-writes'],
      httpDefaultSession: values['http-default-session'],
    };
    if (flags.http !== undefined) parseHostPort(flags.http === true ? DEFAULT_HTTP : String(flags.http));
  } catch (error) {
    complain(`${(error as Error).message} (see moor daemon run --help)`);
    process.exit(2);
  }
  await runDaemonCommand(flags);
}

async function control(
  paths: StatePaths,
  what: 'status' | 'stop',
): Promise<(HelloReply & { ok: true }) | undefined> {
  const outcome = await connectDaemon(paths.socket, { moor: HELLO_VERSION, control: what }, 3000);
  if (outcome.kind !== 'connected') return undefined;
  outcome.link.socket.destroy();
  return outcome.link.reply;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Arguments `start` passes on to the detached `run`. */
function runArgs(flags: DaemonRunFlags): string[] {
  const args: string[] = [];
  if (flags.workspace) args.push('--workspace', flags.workspace);
  if (flags.decisions) args.push('--decisions', flags.decisions);
  if (flags.maxInFlight !== undefined) args.push('--max-in-flight', String(flags.maxInFlight));
  if (flags.graceMs !== undefined) args.push('--grace-ms', String(flags.graceMs));
  if (flags.roomKeepaliveMs !== undefined) args.push('--room-keepalive-ms', String(flags.roomKeepaliveMs));
  if (flags.logLevel) args.push('--log-level', flags.logLevel);
  if (flags.http !== undefined && flags.http !== false)
    args.push('--http', flags.http === true ? DEFAULT_HTTP : flags.http);
  if (flags.tokenFile) args.push('--token-file', path.resolve(flags.tokenFile));
  for (const root of flags.allowRoot ?? []) args.push('--allow-root', path.resolve(root));
  for (const pack of flags.pack ?? []) args.push('--pack', pack);
  if (flags.taskRetentionMs !== undefined) args.push('--task-retention-ms', String(flags.taskRetentionMs));
  if (flags.allowWrites) args.push('--allow-writes');
  if (flags.httpDefaultSession) args.push('--http-default-session', flags.httpDefaultSession);
  return args;
}

export async function startCommand(flags: DaemonRunFlags): Promise<void> {
  const paths = statePaths();
  ensureStateDir(paths.dir);
  const existing = await control(paths, 'status');
  if (existing) {
    say(`moor daemon already running: pid ${existing.incarnation.pid}, socket ${paths.socket}`);
    return;
  }
  const pid = spawnDaemon(paths, runArgs(flags), process.cwd());
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await sleep(50);
    const reply = await control(paths, 'status');
    if (reply) {
      say(`moor daemon started: pid ${reply.incarnation.pid}, socket ${paths.socket}`);
      return;
    }
    if (pid !== undefined && !isAliveProcess(pid)) {
      // It may have lost the lock to another starter: give that one the rest of the wait.
      const other = await control(paths, 'status');
      if (other) {
        say(`moor daemon started: pid ${other.incarnation.pid}, socket ${paths.socket}`);
        return;
      }
    }
  }
  complain(`the daemon did not answer within ${START_TIMEOUT_MS / 1000} s; see ${paths.log}`);
  process.exitCode = 1;
}

export async function stopCommand(timeoutMs: number): Promise<boolean> {
  const paths = statePaths();
  const reply = await control(paths, 'stop');
  if (!reply) {
    say('moor daemon is not running');
    return true;
  }
  const { pid } = reply.incarnation;
  const deadline = Date.now() + timeoutMs;
  while (isAliveProcess(pid)) {
    if (Date.now() > deadline) {
      complain(`the daemon (pid ${pid}) did not stop within ${timeoutMs / 1000} s`);
      process.exitCode = 1;
      return false;
    }
    await sleep(25);
  }
  say(`moor daemon stopped (pid ${pid})`);
  return true;
}

export async function statusCommand(json: boolean): Promise<void> {
  const paths = statePaths();
  const reply = await control(paths, 'status');
  if (!reply) {
    if (json) say(JSON.stringify({ running: false, socket: paths.socket }));
    else say(`moor daemon is not running (state dir ${paths.dir})`);
    process.exitCode = 3;
    return;
  }
  const { incarnation, status } = reply;
  const view = { running: true, incarnation, version: incarnation.version, ...status };
  if (json) {
    say(JSON.stringify(view, null, 2));
    return;
  }
  const uptime = status ? `${Math.round(status.uptimeMs / 1000)} s` : '-';
  say(
    `moor daemon ${incarnation.version}: running, pid ${incarnation.pid}, started ${incarnation.startedAt} (up ${uptime})`,
  );
  if (!status) return;
  say(`  socket:        ${status.socket}`);
  say(`  http:          ${status.httpUrl ?? 'off'}`);
  say(`  clients:       ${status.connectedClients}`);
  say(`  in flight:     ${status.inFlight} (limit ${status.maxInFlight})`);
  if (status.memory) {
    say(
      `  memory:        ${(status.memory.rss / 2 ** 20).toFixed(0)} MiB resident, ${(status.memory.heapUsed / 2 ** 20).toFixed(0)} MiB heap in use`,
    );
  }
  say(`  workspaces:    ${status.workspaces.length === 0 ? 'none loaded' : ''}`);
  for (const w of status.workspaces) say(`    ${w.root} (${w.connections} connections)`);
}

function int(name: string, min: number) {
  return (value: string) => wholeNumber(name, value, min) as number;
}

function runOptions(command: Command): Command {
  return command
    .option('-w, --workspace <dir>', 'workspace for clients that name none (default: the enclosing git root)')
    .option('-d, --decisions <dir>', 'decisions folder for that workspace')
    .option(
      '--max-in-flight <n>',
      `admission limit across socket and HTTP (default ${DEFAULT_MAX_IN_FLIGHT})`,
      int('--max-in-flight', 1),
    )
    .option(
      '--grace-ms <ms>',
      `how long shutdown waits for in-flight requests (default ${DEFAULT_GRACE_MS})`,
      int('--grace-ms', 0),
    )
    .option(
      '--room-keepalive-ms <ms>',
      `how long an unused workspace stays loaded (default ${DEFAULT_ROOM_KEEPALIVE_MS})`,
      int('--room-keepalive-ms', 0),
    )
    .option('--log-level <level>', 'trace, debug, info, warn, error (default info; env MOOR_LOG_LEVEL)')
    .option('--http [host:port]', `also serve Streamable HTTP at /mcp (default ${DEFAULT_HTTP})`)
    .option('--token-file <file>', 'bearer token clients must send (required beyond loopback)')
    .option(
      '--allow-root <dir>',
      'a directory HTTP clients may name in Moor-Workspace (repeatable; default: any directory you own)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--pack <name>',
      'serve this pack besides decisions (repeatable; conformance = the MCP conformance fixtures, tests only)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--task-retention-ms <ms>',
      'how long a finished task stays readable (default 600000)',
      int('--task-retention-ms', 0),
    )
    .option('--allow-writes', 'serve tools that write into the workspace (draft_decision)')
    .option(
      '--http-default-session <key>',
      'session key for HTTP requests without Moor-Session (test set-ups)',
    );
}

export function registerDaemon(program: Command): void {
  const daemon = program
    .command('daemon')
    .description(
      'the per-user daemon that `moor stdio` connects to (state in $MOOR_STATE_DIR, else $XDG_STATE_HOME/moor)',
    );

  runOptions(daemon.command('run'))
    .description('run the daemon in the foreground (logs to stderr and the state dir)')
    .option('--detached', 'log to the file only (used by start)')
    .action((flags: DaemonRunFlags) => runDaemonCommand(flags));

  runOptions(daemon.command('start'))
    .description('start the daemon in the background; returns once it answers')
    .action((flags: DaemonRunFlags) => startCommand(flags));

  daemon
    .command('stop')
    .description('stop the daemon gracefully (in-flight requests finish within the grace period)')
    .option('--timeout-ms <ms>', 'how long to wait for it to exit', int('--timeout-ms', 0), 30_000)
    .action(async (flags: { timeoutMs: number }) => {
      await stopCommand(flags.timeoutMs);
    });

  runOptions(daemon.command('restart'))
    .description('stop the daemon gracefully, then start it again')
    .option('--timeout-ms <ms>', 'how long to wait for the old one to exit', int('--timeout-ms', 0), 30_000)
    .action(async (flags: DaemonRunFlags & { timeoutMs: number }) => {
      if (await stopCommand(flags.timeoutMs)) await startCommand(flags);
    });

  daemon
    .command('status')
    .description('incarnation, uptime, socket, HTTP URL, clients, in-flight requests, loaded workspaces')
    .option('--json', 'print JSON')
    .action((flags: { json?: boolean }) => statusCommand(flags.json === true));
}
