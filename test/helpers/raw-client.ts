/**
 * A line-delimited JSON-RPC client over a spawned process: for the bytes the
 * SDK client would hide (malformed lines, exact error payloads, cache hints).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-e2e', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
} as const;

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export class RawClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: string[] = [];
  readonly #pending = new Map<number | string | null, (r: JsonRpcResponse) => void>();
  readonly #unmatched: JsonRpcResponse[] = [];
  #nextId = 1;

  constructor(command: string, args: readonly string[], env?: NodeJS.ProcessEnv) {
    this.child = spawn(command, args, { stdio: 'pipe', env: { ...process.env, ...env } });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as JsonRpcResponse;
      if (!('id' in message)) return; // notifications are not awaited here
      const waiter = this.#pending.get(message.id);
      if (waiter) {
        this.#pending.delete(message.id);
        waiter(message);
      } else this.#unmatched.push(message);
    });
    createInterface({ input: this.child.stderr }).on('line', (line) => this.stderr.push(line));
  }

  /** Sends a request and waits for the response with the same id. */
  request(
    method: string,
    params?: Record<string, unknown>,
    id: number | string = this.#nextId++,
  ): Promise<JsonRpcResponse> {
    const answer = new Promise<JsonRpcResponse>((resolve) => this.#pending.set(id, resolve));
    this.sendLine(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }));
    return answer;
  }

  /** A modern-era request: the envelope rides in params._meta. */
  modern(method: string, params: Record<string, unknown> = {}): Promise<JsonRpcResponse> {
    const meta = { ...MODERN_META, ...((params._meta as object | undefined) ?? {}) };
    return this.request(method, { ...params, _meta: meta });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.sendLine(JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }));
  }

  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Waits for a response that no request of ours was waiting for (e.g. an error with id null). */
  async nextUnmatched(timeoutMs = 5000): Promise<JsonRpcResponse> {
    const started = Date.now();
    while (this.#unmatched.length === 0) {
      if (Date.now() - started > timeoutMs) throw new Error('no unmatched response arrived');
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.#unmatched.shift() as JsonRpcResponse;
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    if (this.child.exitCode !== null) return this.child.exitCode;
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }
}
