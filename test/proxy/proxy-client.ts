/**
 * A line client of a spawned `moor stdio` that keeps every line (responses
 * and notifications) for inspection.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { MODERN_META } from '../helpers/raw-client.js';

export interface Msg {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export class ProxyClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Msg[] = [];
  readonly raw: string[] = [];
  readonly stderr: string[] = [];
  #waiters: Array<() => void> = [];
  #nextId = 1;

  constructor(
    state: TestState,
    args: readonly string[] = ['stdio', '--workspace', E2E_WORKSPACE],
    env: Record<string, string> = {},
    /** Another build's CLI (the upgrade tests run two versions). */
    bin: string = MOOR_BIN,
  ) {
    this.child = spawn(process.execPath, [bin, ...args], {
      env: { ...state.env, ...env },
      stdio: 'pipe',
    });
    if (this.child.pid) state.pids.add(this.child.pid);
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.raw.push(line);
      this.lines.push(JSON.parse(line) as Msg);
      for (const w of this.#waiters.splice(0)) w();
    });
    createInterface({ input: this.child.stderr }).on('line', (line) => this.stderr.push(line));
  }

  async until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
    const started = Date.now();
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      if (Date.now() - started > timeoutMs) {
        throw new Error(
          `timed out waiting for ${what}; stderr: ${this.stderr.join('\n')}; last lines: ${this.raw.slice(-5).join('\n')}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  send(
    method: string,
    params?: Record<string, unknown>,
    modern = false,
    id: number | string = this.#nextId++,
  ): number | string {
    const p = modern
      ? { ...(params ?? {}), _meta: { ...MODERN_META, ...((params?._meta as object) ?? {}) } }
      : params;
    this.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(p ? { params: p } : {}) })}\n`,
    );
    return id;
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`);
  }

  responses(id: number | string): Msg[] {
    return this.lines.filter((l) => l.id === id && l.method === undefined);
  }

  response(id: number | string, timeoutMs?: number): Promise<Msg> {
    return this.until(`response ${id}`, () => this.responses(id)[0], timeoutMs);
  }

  async request(method: string, params?: Record<string, unknown>, modern = false): Promise<Msg> {
    return this.response(this.send(method, params, modern));
  }

  /** Legacy handshake. */
  async initialize(): Promise<Msg> {
    const answer = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'proxy-test', version: '1' },
    });
    this.notify('notifications/initialized');
    return answer;
  }

  notifications(method: string): Msg[] {
    return this.lines.filter((l) => l.method === method && l.id === undefined);
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    if (this.child.exitCode !== null) return this.child.exitCode;
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }
}
