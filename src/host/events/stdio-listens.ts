/**
 * Listen streams on a line connection (direct stdio, the daemon's socket):
 * a transport wrapper that takes every well-formed 2026-07-28
 * `subscriptions/listen` off the stream before the SDK sees it and serves it
 * as a ListenStream on the same connection. The client ends one with
 * `notifications/cancelled` for its id; closing the connection ends them
 * all; closeAll() (shutdown) ends them with their graceful result. A stream
 * refused (over the URI budget, task ids without the extension) is answered
 * with the JSON-RPC error at once and never acknowledged.
 */
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { MoorError } from '../../errors.js';
import { withTrace } from '../../protocol/trace.js';
import {
  type ListenAudience,
  type ListenOffer,
  type ListenStream,
  openListen,
  parseListen,
  type ServerInfo,
} from './listen.js';
import type { ListenBudget } from './listen-budget.js';
import type { EventRouter } from './router.js';

export interface ListenTransportOptions {
  readonly router: EventRouter;
  readonly budget: ListenBudget;
  readonly offer: ListenOffer;
  /** Read at each listen: the caller's scope may change what the connection holds. */
  audience(): ListenAudience;
  /**
   * Awaited before each stream opens: the caller's workspace loaded and its
   * resource states open, so the stream hears every change after its
   * acknowledgement and its URIs are looked up in a loaded workspace.
   */
  prepare?(): Promise<void>;
  readonly serverInfo: ServerInfo;
  log?(level: 'info' | 'warn', message: string): void;
}

type Id = string | number;

export class ListenTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  readonly #inner: Transport;
  readonly #options: ListenTransportOptions;
  readonly #streams = new Map<Id, ListenStream>();
  /** The connection has closed: a listen still preparing opens no stream. */
  #ended = false;

  constructor(inner: Transport, options: ListenTransportOptions) {
    this.#inner = inner;
    this.#options = options;
  }

  /** Open listen streams on this connection. */
  get listening(): number {
    return this.#streams.size;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => this.#receive(message, extra);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.#ended = true;
      for (const stream of [...this.#streams.values()]) stream.close(false);
      this.onclose?.();
    };
    await this.#inner.start();
  }

  setProtocolVersion = (version: string): void => {
    this.#inner.setProtocolVersion?.(version);
  };

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  /** Shutdown: every stream gets its graceful result. */
  closeAll(): void {
    for (const stream of [...this.#streams.values()]) stream.close(true);
  }

  async close(): Promise<void> {
    await this.#inner.close();
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ('method' in message) {
      if (message.method === 'subscriptions/listen' && 'id' in message) {
        const request = parseListen(message);
        if (request !== undefined) {
          const prepared = this.#options.prepare?.() ?? Promise.resolve();
          prepared
            .catch(() => {
              // Nothing to open (no usable workspace): the stream hears what its rooms say.
            })
            .then(() => this.#listen(request));
          return;
        }
      } else if (message.method === 'notifications/cancelled') {
        const requestId = (message.params as { requestId?: Id } | undefined)?.requestId;
        const stream = requestId === undefined ? undefined : this.#streams.get(requestId);
        if (stream !== undefined) {
          stream.close(false);
          return;
        }
      }
    }
    this.onmessage?.(message, extra);
  }

  #listen(request: NonNullable<ReturnType<typeof parseListen>>): void {
    const { router, budget, offer, serverInfo } = this.#options;
    if (this.#ended) return;
    if (this.#streams.has(request.id)) this.#streams.get(request.id)?.close(false);
    let stream: ListenStream;
    try {
      stream = openListen({
        request,
        offer,
        audience: this.#options.audience(),
        router,
        budget,
        serverInfo,
        send: (out) => {
          this.#inner.send(out).catch(() => {});
        },
        onClosed: () => {
          if (this.#streams.get(request.id) === stream) this.#streams.delete(request.id);
        },
      });
    } catch (error) {
      const refusal =
        error instanceof MoorError
          ? error
          : new MoorError('INTERNAL', 'the listen stream could not be opened');
      this.#options.log?.(
        'info',
        withTrace(`refused subscriptions/listen: ${refusal.message}`, request.traceId),
      );
      this.#inner
        .send({ jsonrpc: '2.0', id: request.id, error: refusal.toJsonRpc() } as JSONRPCMessage)
        .catch(() => {});
      return;
    }
    this.#streams.set(request.id, stream);
    stream.start();
  }
}
