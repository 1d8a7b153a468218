/**
 * Newline-delimited JSON-RPC over a pair of streams (stdio, or a daemon
 * socket after its hello), as an SDK Transport. It exists because the SDK's
 * StdioServerTransport silently drops a malformed line: a client that sent
 * one would wait forever. Here a line that is not JSON is answered with
 * -32700 and a JSON value that is not JSON-RPC with -32600, and the
 * connection stays usable. So does one that is too large (the rest of that
 * line is skipped), too deeply nested, or whose id is not a string or number:
 * each gets a -32600 answer, never silence.
 */
import type { Readable, Writable } from 'node:stream';
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';
import {
  BAD_ID_MESSAGE,
  ID_SCAN_BYTES,
  idFromHead,
  isJsonRpcId,
  type JsonRpcId,
  MAX_LINE_BYTES,
  nestsDeeperThan,
  TOO_DEEP_MESSAGE,
  tooLargeMessage,
} from '../protocol/json-shape.js';

export { MAX_LINE_BYTES } from '../protocol/json-shape.js';

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The start of the current line, in the chunks it arrived in (joined once, when its newline comes). */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The current line was too large and is answered already: its bytes are dropped up to its newline. */
  #skipping = false;
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
    this.#pending = [];
    this.#pendingBytes = 0;
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
    let start = 0;
    while (!this.#closed) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) break;
      if (this.#skipping) this.#skipping = false;
      else
        this.#line(
          this.#pending.length > 0
            ? this.#joined(chunk.subarray(start, newline))
            : chunk.subarray(start, newline),
        );
      start = newline + 1;
    }
    if (this.#closed || start >= chunk.length || this.#skipping) return;
    const rest = chunk.subarray(start);
    this.#pending.push(rest);
    this.#pendingBytes += rest.length;
    if (this.#pendingBytes > MAX_LINE_BYTES) {
      const head = Buffer.concat(this.#pending, Math.min(ID_SCAN_BYTES, this.#pendingBytes));
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#skipping = true;
      this.#tooLarge(head);
    }
  };

  /** The pending start of a line and its end, in one buffer. */
  #joined(end: Buffer): Buffer {
    const line = Buffer.concat([...this.#pending, end]);
    this.#pending = [];
    this.#pendingBytes = 0;
    return line;
  }

  #line(bytes: Buffer): void {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    const line = bytes.subarray(0, end);
    if (line.length > MAX_LINE_BYTES) {
      this.#tooLarge(line);
      return;
    }
    const text = line.toString('utf8');
    if (text.trim().length > 0) this.#receive(text, line);
  }

  #tooLarge(head: Buffer): void {
    const message = tooLargeMessage(MAX_LINE_BYTES);
    this.onerror?.(new MoorError('MESSAGE_TOO_LARGE', message));
    this.#reject(idFromHead(head), new MoorError('MESSAGE_TOO_LARGE', message));
  }

  #receive(line: string, bytes: Buffer): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#reject(null, new MoorError('PARSE_ERROR', `Parse error: ${(error as Error).message}`));
      return;
    }
    const id = (value as { id?: unknown } | null)?.id;
    if (nestsDeeperThan(bytes)) {
      this.#reject(isJsonRpcId(id) ? id : null, new MoorError('MESSAGE_TOO_DEEP', TOO_DEEP_MESSAGE));
      return;
    }
    // An id that is an array or object is unusable (and would be walked by code that keys on it).
    if (id !== undefined && id !== null && !isJsonRpcId(id)) {
      this.#reject(null, new MoorError('INVALID_MESSAGE', BAD_ID_MESSAGE));
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.#reject(
        isJsonRpcId(id) ? id : null,
        new MoorError('INVALID_MESSAGE', 'Invalid Request: not a JSON-RPC 2.0 message'),
      );
      return;
    }
    this.onmessage?.(message);
  }

  #reject(id: JsonRpcId | null, refusal: MoorError): void {
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
