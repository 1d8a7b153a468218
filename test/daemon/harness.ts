/**
 * Real daemons for tests: a temporary state dir each, started from the built
 * CLI, always stopped afterwards (killed by the pid in incarnation.json and the
 * lock, plus every pid a test started) so no process outlives a test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HELLO_VERSION, type HelloReply } from '../../src/protocol/hello.js';
import { statePaths } from '../../src/protocol/state-dir.js';
import { MOOR_BIN } from '../helpers/paths.js';

export interface TestState {
  readonly dir: string;
  readonly env: Record<string, string>;
  readonly pids: Set<number>;
}

const live = new Set<TestState>();

export function makeState(extraEnv: Record<string, string> = {}): TestState {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-'));
  const state: TestState = {
    dir,
    env: { ...(process.env as Record<string, string>), MOOR_STATE_DIR: dir, ...extraEnv },
    pids: new Set(),
  };
  live.add(state);
  return state;
}

export function paths(state: TestState) {
  return statePaths(state.dir);
}

export function incarnationPid(state: TestState): number | undefined {
  try {
    return (JSON.parse(fs.readFileSync(paths(state).incarnation, 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export function lockPid(state: TestState): number | undefined {
  try {
    return Number.parseInt(fs.readFileSync(paths(state).lock, 'utf8'), 10);
  } catch {
    return undefined;
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends one control hello; undefined when nothing answers. */
export function control(
  state: TestState,
  what: 'status' | 'stop',
): Promise<(HelloReply & { ok: true }) | undefined> {
  return new Promise((resolve) => {
    const socket = net.createConnection(paths(state).socket);
    let data = '';
    socket.on('error', () => resolve(undefined));
    socket.on('connect', () => socket.write(`${JSON.stringify({ moor: HELLO_VERSION, control: what })}\n`));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const nl = data.indexOf('\n');
      if (nl >= 0) {
        socket.destroy();
        const reply = JSON.parse(data.slice(0, nl)) as HelloReply;
        resolve(reply.ok ? reply : undefined);
      }
    });
  });
}

/** Runs the built CLI (or another build's, `bin`) to completion. */
export function runCli(
  state: TestState,
  args: readonly string[],
  env: Record<string, string> = {},
  bin: string = MOOR_BIN,
) {
  return runNode([bin, ...args], { ...state.env, ...env });
}

/** Runs `node` with these arguments to completion: its exit code and both streams. */
export function runNode(nodeArgs: readonly string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, nodeArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `moor daemon run` in the foreground as a child; resolves once it answers a status hello. */
export async function startDaemon(
  state: TestState,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; pid: number; stderr: string[] }> {
  const child = spawn(process.execPath, [MOOR_BIN, 'daemon', 'run', ...args], {
    env: { ...state.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (c) => stderr.push(String(c)));
  if (child.pid) state.pids.add(child.pid);
  const reply = await waitFor('the daemon to answer', async () => {
    if (child.exitCode !== null) throw new Error(`daemon exited ${child.exitCode}: ${stderr.join('')}`);
    return control(state, 'status');
  });
  return { child, pid: reply.incarnation.pid, stderr };
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Kills every daemon the state dir names and every process the test started; removes the dir. */
export async function cleanup(state: TestState): Promise<void> {
  const pids = new Set(state.pids);
  for (const pid of [incarnationPid(state), lockPid(state), ...daemonProcesses(state)])
    if (pid) pids.add(pid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitFor(
    'test processes to exit',
    () => [...pids].every((pid) => !isAlive(pid)) || undefined,
    5000,
  ).catch(() => {});
  fs.rmSync(state.dir, { recursive: true, force: true });
  live.delete(state);
}

export async function cleanupAll(): Promise<void> {
  for (const state of [...live]) await cleanup(state);
}

/** Pids of live `daemon run` processes for this state dir (from /proc). */
export function daemonProcesses(state: TestState): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!cmdline.includes('daemon') || !cmdline.includes('run')) continue;
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environ.includes(`MOOR_STATE_DIR=${state.dir}`)) found.push(Number(entry));
    } catch {
      // gone or not ours
    }
  }
  return found;
}
