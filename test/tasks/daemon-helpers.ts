/**
 * Shared by the tasks e2e tests: a real daemon (the built binary) in a
 * temporary state dir, raw JSON-RPC over its HTTP endpoint with the
 * 2026-07-28 envelope, and cleanup that kills every daemon by pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MOOR_BIN } from '../helpers/paths.js';

export const TASKS = 'io.modelcontextprotocol/tasks';

export interface Daemon {
  readonly url: string;
  readonly child: ChildProcess;
}

const stateDirs: string[] = [];
const running = new Set<ChildProcess>();

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function tempState(prefix = 'moor-tasks-e2e-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  stateDirs.push(dir);
  return dir;
}

/**
 * A daemon serving HTTP, up once its /healthz answers; `extra` are more
 * `daemon run` flags. A free port unless `port` is given (a restart reuses
 * its predecessor's).
 */
export async function startDaemon(stateDir: string, extra: string[] = [], port?: number): Promise<Daemon> {
  const at = port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [MOOR_BIN, 'daemon', 'run', '--detached', '--http', `127.0.0.1:${at}`, ...extra],
    { env: { ...process.env, MOOR_STATE_DIR: stateDir }, stdio: 'ignore' },
  );
  track(child);
  const deadline = Date.now() + 10_000;
  const tokenFile = path.join(stateDir, 'http.token');
  for (;;) {
    try {
      // The daemon requires the bearer token it keeps in its state dir (written before it listens).
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      const r = await fetch(`http://127.0.0.1:${at}/healthz`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (r.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('daemon did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `http://127.0.0.1:${at}/mcp`;
  tokens.set(url, fs.readFileSync(tokenFile, 'utf8').trim());
  return { url, child };
}

/** Each started daemon's URL → its bearer token. */
const tokens = new Map<string, string>();

/** A daemon started elsewhere (a cluster) whose requests must carry `token`. */
export function rememberToken(url: string, token: string): void {
  tokens.set(url, token);
}

/** The headers a request to the daemon at `url` needs besides its own: the bearer token. */
export function authHeaders(url: string): Record<string, string> {
  const token = tokens.get(url);
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

export function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** Kills every child started here (SIGKILL, by pid) and waits for each to exit. */
export async function killAll(): Promise<void> {
  for (const child of [...running]) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

/** Kills a daemon this process did not start (one a proxy spawned), by the pid in its lock file. */
export function killByPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function removeStateDirs(): void {
  for (const dir of stateDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface Answer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

export interface RpcOptions {
  /** Declare the tasks extension (default true). */
  readonly declare?: boolean;
  /** Moor-Session; null sends none. */
  readonly session?: string | null;
  readonly elicitation?: boolean;
  /** Mcp-Name; by default the params' taskId or name. */
  readonly name?: string;
}

export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: RpcOptions = {},
): Promise<Answer> {
  const capabilities: Record<string, unknown> = {
    ...(options.declare === false ? {} : { extensions: { [TASKS]: {} } }),
    ...(options.elicitation === false ? {} : { elicitation: {} }),
  };
  const { _meta, ...rest } = params as { _meta?: Record<string, unknown> };
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...rest,
      _meta: {
        ..._meta,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'tasks-e2e', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  };
  const name = options.name ?? (params.taskId as string | undefined) ?? (params.name as string | undefined);
  const session = options.session === undefined ? 'tasks-e2e-session' : options.session;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...authHeaders(url),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...(session !== null ? { 'moor-session': session } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('\ndata: ').pop() ?? '{}');
  return { status: response.status, ...json };
}

export interface UntilOptions extends RpcOptions {
  /** Checks every tasks/get result on the way (e.g. against the tasks schema). */
  readonly eachPoll?: (task: Record<string, unknown>) => void;
}

/** Polls tasks/get until the task reaches one of `statuses`. */
export async function until(
  url: string,
  taskId: string,
  statuses: string[],
  options: UntilOptions = {},
  ms = 10_000,
): Promise<Record<string, unknown>> {
  const { eachPoll, ...rpcOptions } = options;
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await rpc(url, 'tasks/get', { taskId }, rpcOptions);
    if (answer.error) throw new Error(`tasks/get: ${answer.error.message}`);
    const task = answer.result as Record<string, unknown>;
    eachPoll?.(task);
    if (statuses.includes(task.status as string)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${task.status as string}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
