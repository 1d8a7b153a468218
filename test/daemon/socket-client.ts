/**
 * A raw client of the daemon socket: the hello, then newline-delimited
 * JSON-RPC, with every line kept for inspection.
 */
import net from 'node:net';
import { MODERN_META } from '../helpers/raw-client.js';

export interface Line {
  readonly raw: string;
  readonly json: Record<string, unknown> & {
    id?: number | string;
    error?: { code: number; message: string; data?: unknown };
  };
}

export class SocketClient {
  readonly socket: net.Socket;
  readonly lines: Line[] = [];
  #buffer = '';
  #waiters: Array<() => void> = [];
  closed = false;
  #nextId = 1;

  constructor(socketPath: string) {
    this.socket = net.createConnection(socketPath);
    this.socket.on('data', (chunk) => {
      this.#buffer += chunk.toString('utf8');
      for (;;) {
        const nl = this.#buffer.indexOf('\n');
        if (nl < 0) break;
        const raw = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        this.lines.push({ raw, json: JSON.parse(raw) });
      }
      this.#wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    this.socket.on('error', () => {});
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  write(text: string): void {
    this.socket.write(text);
  }

  async until<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
    const started = Date.now();
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      if (Date.now() - started > timeoutMs)
        throw new Error(`timed out waiting for ${what}; lines: ${this.lines.map((l) => l.raw).join('\n')}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  response(id: number | string, timeoutMs?: number): Promise<Line> {
    return this.until(
      `response ${id}`,
      () => this.lines.find((l) => l.json.id === id && !('method' in l.json)),
      timeoutMs,
    );
  }

  async hello(workspace?: string, sessionKey = 'moor-test-session-key'): Promise<Line> {
    const hello = {
      moor: 1,
      sessionKey,
      client: { name: 'test', version: '1' },
      ...(workspace ? { workspace } : {}),
    };
    this.write(`${JSON.stringify(hello)}\n`);
    return this.until('hello reply', () => this.lines[0]);
  }

  /** A modern request; resolves with its id (the response is read with response()). */
  send(
    method: string,
    params: Record<string, unknown> = {},
    id: number | string = this.#nextId++,
  ): number | string {
    const meta = { ...MODERN_META, ...((params._meta as object | undefined) ?? {}) };
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } })}\n`);
    return id;
  }

  close(): void {
    this.socket.destroy();
  }
}
