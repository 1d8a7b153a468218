/**
 * Newline-delimited JSON-RPC over a pair of streams (stdio, or a daemon
 * socket after its hello), as an SDK Transport. It exists because the SDK's
 * StdioServerTransport silently drops a malformed line: a client that sent
 * one would wait forever. Here a line that is not JSON is answered with
 * -32700 and a JSON value that is not JSON-RPC with -32600, and the
 * connection stays usable.
 */
import type { Readable, Writable } from 'node:stream';
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';

/** One line may not exceed this; a longer one is a client bug or an attack, and closes the connection. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #pending: Buffer | undefined;
  #closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.#onData);
    this.input.on('end', this.#onEnd);
    this.input.on('close', this.#onEnd);
    this.input.on('error', this.#onError);
    this.output.on('error', this.#onOutputError);
    if (this.input.readableEnded || this.input.destroyed) setImmediate(this.#onEnd);
  }

  /** Feeds bytes that were read before this transport took over the stream (e.g. after a hello line). */
  push(chunk: Buffer): void {
    this.#onData(chunk);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new MoorError('CONNECTION_CLOSED', 'connection closed'));
    return this.#write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.input.off('data', this.#onData);
    this.input.off('end', this.#onEnd);
    this.input.off('close', this.#onEnd);
    this.input.off('error', this.#onError);
    this.#pending = undefined;
    this.onclose?.();
  }

  #write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const ok = this.output.write(text, (error) => {
        if (error) reject(error);
      });
      if (ok) resolve();
      else this.output.once('drain', resolve);
    });
  }

  readonly #onData = (chunk: Buffer): void => {
    let buffer = this.#pending ? Buffer.concat([this.#pending, chunk]) : chunk;
    let newline = buffer.indexOf(10);
    while (newline !== -1 && !this.#closed) {
      const line = buffer.toString('utf8', 0, newline).replace(/\r$/, '');
      buffer = buffer.subarray(newline + 1);
      if (line.trim().length > 0) this.#receive(line);
      newline = buffer.indexOf(10);
    }
    if (buffer.length > MAX_LINE_BYTES) {
      this.onerror?.(
        new MoorError(
          'MESSAGE_TOO_LARGE',
          `a message exceeded ${MAX_LINE_BYTES} bytes; closing the connection`,
        ),
      );
      void this.close();
      return;
    }
    this.#pending = buffer.length > 0 ? buffer : undefined;
  };

  #receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#reject(null, new MoorError('PARSE_ERROR', `Parse error: ${(error as Error).message}`));
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown } | null)?.id;
      const echoed = typeof id === 'string' || typeof id === 'number' ? id : null;
      this.#reject(echoed, new MoorError('INVALID_MESSAGE', 'Invalid Request: not a JSON-RPC 2.0 message'));
      return;
    }
    this.onmessage?.(message);
  }

  #reject(id: string | number | null, refusal: MoorError): void {
    this.#write(`${JSON.stringify({ jsonrpc: '2.0', id, error: refusal.toJsonRpc() })}\n`).catch(
      (error: Error) => this.onerror?.(error),
    );
  }

  readonly #onEnd = (): void => {
    void this.close();
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onOutputError = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };
}
