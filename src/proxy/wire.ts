/**
 * JSON-RPC lines as the proxy sees them: only ids, methods and a few members
 * are read; everything else crosses byte for byte.
 */
import { JsonRpcCode, type MoorError } from '../errors.js';

export type Id = string | number;

export interface Message {
  id?: Id | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export const NL = Buffer.from('\n');
export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

/** One map key for an id: the number 1 and the string "1" are different requests. */
export function keyOf(id: Id): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

/** The line answering a frame the proxy refuses itself (too large, an unusable id): -32600. */
export function invalidRequestAnswer(id: Id | null, refusal: MoorError): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error: refusal.toJsonRpc() }));
}

/** The line answering request `id` with the daemon-unavailable error. */
export function unavailableAnswer(id: Id, message: string): Buffer {
  return Buffer.from(
    JSON.stringify({ jsonrpc: '2.0', id, error: { code: JsonRpcCode.Unavailable, message } }),
  );
}

/** Where the proxy's own answers and notifications to the client go. */
export interface ClientSink {
  /** Queues one line for the client. */
  send(line: Buffer): void;
  /** Writes out what is queued. */
  flush(): void;
  /** Answers request `id` with the daemon-unavailable error, at once. */
  fail(id: Id, message: string): void;
}

/** Lines for the client, buffered until the end of the chunk being handled. */
export class ClientOutput implements ClientSink {
  readonly #output: NodeJS.WritableStream;
  #buffered: Buffer[] = [];

  constructor(output: NodeJS.WritableStream) {
    this.#output = output;
  }

  send(line: Buffer): void {
    this.#buffered.push(line, NL);
  }

  flush(): void {
    if (this.#buffered.length === 0) return;
    const out = Buffer.concat(this.#buffered);
    this.#buffered = [];
    this.#output.write(out);
  }

  fail(id: Id, message: string): void {
    this.send(unavailableAnswer(id, message));
    this.flush();
  }
}
