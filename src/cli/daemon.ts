/**
 * `moor daemon run|start|stop|restart|status|token|metrics`: parsing and printing. `run`
 * takes the state dir's lock before loading the app, so a starter that loses
 * the race exits at once and cheaply (many proxies may start one at the same
 * moment). The flags are declared in src/protocol/daemon-flags.ts; starting,
 * stopping and loading the app are src/app's.
 */
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { askDaemon, startDaemon, stopDaemon } from '../app/control/daemon-control.js';
import { checkDowngrade } from '../app/control/downgrade-guard.js';
import { tokenForUrl } from '../app/control/http-token-check.js';
import { parseDaemonRunArgv } from '../app/daemon/daemon-flags.js';
import { daemonRunOptions } from '../app/daemon/daemon-run-options.js';
import { wireDaemonSignals } from '../app/daemon/daemon-signals.js';
import { loadDaemonApp } from '../app/daemon-loader.js';
import { runningDaemonLoginLink } from '../app/status/login-link.js';
import { acquireLock } from '../daemon/lock.js';
import { startExitCode } from '../daemon/start-failure.js';
import { ensureStateDir } from '../daemon/state.js';
import { exitCodeOf, MoorError } from '../errors.js';
import type { DaemonRunFlags } from '../protocol/daemon-flags.js';
import { SUCCESSOR_OF_ENV } from '../protocol/handoff.js';
import { statePaths } from '../protocol/state-dir.js';
import { connectHelp } from './connect-help.js';
import { addDaemonRunOptions, wholeNumberOption } from './daemon-options.js';
import { complain, fail, say } from './output.js';
import { printSession } from './sessions.js';

const DEFAULT_STOP_TIMEOUT_MS = 30_000;
/** What `daemon start` exits with when the daemon it spawned refused (docs/errors.md). */
const EXIT_REFUSED_TO_START = 4;
const FORCE_HELP = 'replace the running daemon even when it is a newer moor than this one';

/** The foreground daemon. Resolves never: exits the process when stopped. */
export async function runDaemonCommand(flags: DaemonRunFlags): Promise<void> {
  const paths = statePaths();
  ensureStateDir(paths.dir);
  const bin = fileURLToPath(new URL('./main.js', import.meta.url));
  // A successor the daemon handing over started early: it loads while the old one drains.
  const handingOver = process.env[SUCCESSOR_OF_ENV];
  delete process.env[SUCCESSOR_OF_ENV];
  let lock = acquireLock(paths.lock);
  const app = lock.acquired || handingOver === String(lock.ownerPid) ? loadDaemonApp() : undefined;
  // Its failure is reported where it is awaited, not as an unhandled rejection while the lock is waited for.
  app?.catch(() => {});
  if (!lock.acquired) {
    const { takeOverDaemon, waitForLock } = await import('../app/control/daemon-takeover.js');
    let takeover: Awaited<ReturnType<typeof takeOverDaemon>>;
    if (handingOver === String(lock.ownerPid)) takeover = await waitForLock(paths);
    else if (flags.detached === true) {
      // A detached start that lost the race leaves; a foreground run takes over and serves.
      complain(`a daemon is already running for ${paths.dir} (pid ${lock.ownerPid})`);
      process.exit(0);
    } else {
      complain(`a daemon is already running for ${paths.dir} (pid ${lock.ownerPid}): taking over from it`);
      takeover = await takeOverDaemon(paths, bin);
    }
    if (takeover.kind === 'refused') fail(takeover.error);
    lock = takeover.lock;
  }
  const { runDaemon } = await (app ?? loadDaemonApp());
  let running: Awaited<ReturnType<typeof runDaemon>>;
  try {
    running = await runDaemon(paths, daemonRunOptions(flags), lock.release);
  } catch (error) {
    lock.release();
    complain(`the daemon could not start: ${(error as Error)?.message ?? String(error)}`);
    process.exit(startExitCode(error));
  }
  const { daemon } = running;
  if (flags.detached !== true) {
    process.stderr.write(
      connectHelp({
        httpUrl: running.httpUrl,
        httpToken: running.httpToken,
        httpTokenFile: running.httpTokenFile,
        workspace: running.workspace,
        bin,
        ...(process.env.MOOR_STATE_DIR ? { stateDir: paths.dir } : {}),
      }),
    );
  }
  wireDaemonSignals(daemon, running.logger);
  await daemon.stopped;
  running.closeLog();
  process.exit(0);
}

/** `moor daemon run …` parsed without commander (the fast path from main.ts). */
export async function runDaemonFromArgv(argv: readonly string[]): Promise<void> {
  let flags: DaemonRunFlags;
  try {
    flags = parseDaemonRunArgv(argv);
  } catch (error) {
    fail(new MoorError('USAGE', `${(error as Error).message} (see moor daemon run --help)`));
  }
  await runDaemonCommand(flags);
}

export async function startCommand(flags: DaemonRunFlags): Promise<void> {
  const paths = statePaths();
  const outcome = await startDaemon(paths, flags);
  if (outcome.kind === 'already-running')
    say(`moor daemon already running: pid ${outcome.pid}, socket ${paths.socket}`);
  else if (outcome.kind === 'started') say(`moor daemon started: pid ${outcome.pid}, socket ${paths.socket}`);
  else if (outcome.kind === 'refused') {
    complain(`the daemon refuses to start: ${outcome.message}`);
    process.exitCode = EXIT_REFUSED_TO_START;
  } else if (outcome.kind === 'exited') {
    complain(
      outcome.line === undefined
        ? `the daemon exited at once (exit ${outcome.exitCode}); see ${paths.log}`
        : outcome.line.slice('moor: '.length),
    );
    process.exitCode = outcome.exitCode;
  } else {
    complain(`the daemon did not answer within ${outcome.timeoutMs / 1000} s; see ${paths.log}`);
    process.exitCode = 1;
  }
}

/**
 * Whether `start`/`restart` may go on: false (said, exit 1) when the running
 * daemon is newer than this moor and `--force` was not given. With `--force`
 * and `stopFirst`, the newer daemon is stopped here so the start replaces it.
 */
async function mayReplace(force: boolean, stopFirst: boolean, timeoutMs: number): Promise<boolean> {
  const check = await checkDowngrade(statePaths(), force);
  if (check.kind === 'refuse') {
    complain(check.error.message);
    process.exitCode = exitCodeOf(check.error);
    return false;
  }
  if (check.kind === 'replace' && stopFirst) return stopCommand(timeoutMs);
  return true;
}

export async function stopCommand(timeoutMs: number): Promise<boolean> {
  const outcome = await stopDaemon(statePaths(), timeoutMs);
  if (outcome.kind === 'still-running') {
    complain(`the daemon (pid ${outcome.pid}) did not stop within ${outcome.timeoutMs / 1000} s`);
    process.exitCode = 1;
    return false;
  }
  say(
    outcome.kind === 'not-running'
      ? 'moor daemon is not running'
      : `moor daemon stopped (pid ${outcome.pid})`,
  );
  return true;
}

export async function statusCommand(json: boolean): Promise<void> {
  const paths = statePaths();
  const reply = await askDaemon(paths, 'status');
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
  const login = runningDaemonLoginLink(status);
  if (login !== undefined) say(`  status page:   ${login}`);
  say(`  clients:       ${status.connectedClients}`);
  say(`  in flight:     ${status.inFlight} (limit ${status.maxInFlight})`);
  if (status.memory) {
    say(
      `  memory:        ${(status.memory.rss / 2 ** 20).toFixed(0)} MiB resident, ${(status.memory.heapUsed / 2 ** 20).toFixed(0)} MiB heap in use`,
    );
  }
  if (status.rooms === undefined) {
    say(`  workspaces:    ${status.workspaces.length === 0 ? 'none loaded' : ''}`);
    for (const w of status.workspaces) say(`    ${w.root} (${w.connections} connections)`);
  } else {
    say(`  rooms:         ${status.rooms.length === 0 ? 'none loaded' : ''}`);
    for (const r of status.rooms) {
      const decisions = r.decisions === null ? '' : ` (decisions in ${r.decisions})`;
      const corpus = r.loaded ? `${r.decisionCount ?? 0} decisions` : 'not loaded';
      say(`    ${r.root}${decisions}: ${r.holders} holders, ${corpus}`);
    }
  }
  if (status.sessions !== undefined) {
    say(`  sessions:      ${status.sessions.length === 0 ? 'none in memory' : ''}`);
    for (const s of status.sessions) printSession(s, '    ');
  }
}

/** `moor daemon metrics`: the Prometheus text the daemon serves at /metrics, over its socket. */
export async function metricsCommand(): Promise<void> {
  const paths = statePaths();
  const reply = await askDaemon(paths, 'metrics');
  if (!reply) {
    complain(`moor daemon is not running (state dir ${paths.dir})`);
    process.exitCode = 3;
    return;
  }
  const answer = reply.metrics;
  if (answer === undefined || 'error' in answer) {
    complain(answer?.error.message ?? 'this daemon does not answer metrics; is it older than this moor?');
    process.exitCode = 1;
    return;
  }
  process.stdout.write(answer.text);
}

/** `moor daemon token --url URL`: the token on stdout, only for the daemon's own listener. */
async function tokenCommand(url: string): Promise<void> {
  try {
    say(await tokenForUrl(statePaths(), url));
  } catch (error) {
    if (!(error instanceof MoorError)) throw error;
    complain(error.message);
    process.exitCode = exitCodeOf(error);
  }
}

export function registerDaemon(program: Command): void {
  const daemon = program
    .command('daemon')
    .description(
      'the per-user daemon that `moor stdio` connects to (state in $MOOR_STATE_DIR, else $XDG_STATE_HOME/moor)',
    );

  addDaemonRunOptions(daemon.command('run'), 'run')
    .description(
      'run the daemon in the foreground (logs to stderr and the state dir); a running daemon hands over to it',
    )
    .action((flags: DaemonRunFlags) => runDaemonCommand(flags));

  addDaemonRunOptions(daemon.command('start'), 'start')
    .description('start the daemon in the background; returns once it answers')
    .option('--force', FORCE_HELP)
    .action(async (flags: DaemonRunFlags & { force?: boolean }) => {
      if (await mayReplace(flags.force === true, true, DEFAULT_STOP_TIMEOUT_MS)) await startCommand(flags);
    });

  daemon
    .command('stop')
    .description('stop the daemon gracefully (in-flight requests finish within the grace period)')
    .option(
      '--timeout-ms <ms>',
      'how long to wait for it to exit',
      wholeNumberOption('--timeout-ms', 0),
      DEFAULT_STOP_TIMEOUT_MS,
    )
    .action(async (flags: { timeoutMs: number }) => {
      await stopCommand(flags.timeoutMs);
    });

  addDaemonRunOptions(daemon.command('restart'), 'start')
    .description('stop the daemon gracefully, then start it again')
    .option(
      '--timeout-ms <ms>',
      'how long to wait for the old one to exit',
      wholeNumberOption('--timeout-ms', 0),
      DEFAULT_STOP_TIMEOUT_MS,
    )
    .option('--force', FORCE_HELP)
    .action(async (flags: DaemonRunFlags & { timeoutMs: number; force?: boolean }) => {
      if (!(await mayReplace(flags.force === true, false, flags.timeoutMs))) return;
      if (await stopCommand(flags.timeoutMs)) await startCommand(flags);
    });

  daemon
    .command('status')
    .description('incarnation, uptime, socket, HTTP URL, clients, in-flight requests, rooms, sessions')
    .option('--json', 'print JSON')
    .action((flags: { json?: boolean }) => statusCommand(flags.json === true));

  daemon
    .command('token')
    .description(
      "print the HTTP bearer token, only when your own daemon listens at --url (what printed client configs run, so the token never goes to another user's listener)",
    )
    .requiredOption('--url <url>', 'the HTTP URL the client is about to call')
    .action((flags: { url: string }) => tokenCommand(flags.url));

  daemon
    .command('metrics')
    .description('the Prometheus metrics (what GET /metrics serves), over the socket')
    .action(() => metricsCommand());
}
