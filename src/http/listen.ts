/**
 * `subscriptions/listen` over HTTP, served by moor (events/listen.ts says
 * why not by the SDK's router): a well-formed 2026-07-28 listen POST becomes
 * an SSE response carrying one ListenStream for the rooms its caller's scope holds
 * and its session's tasks. A refused stream never gets an acknowledgement:
 * over the URI budget it is answered HTTP 429 (`LISTEN_LIMIT`), task ids
 * without the extension 400 (-32021). Anything not well formed goes to the
 * SDK handler, which answers it with its own validation error. close()
 * ends every stream with its graceful result.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { MoorError } from '../errors.js';
import type { CallerScope } from '../host/call-scope.js';
import {
  audienceOf,
  LISTEN_METHOD,
  type ListenOffer,
  type ListenRequest,
  type ListenStream,
  openListen,
  parseListen,
  type ServerInfo,
} from '../host/events/listen.js';
import type { ListenBudget } from '../host/events/listen-budget.js';
import type { EventRouter } from '../host/events/router.js';
import { MODERN_PROTOCOL_VERSION } from '../protocol/constants.js';
import { withTrace } from '../protocol/trace.js';
import {
  dispatchErrorBody,
  type HttpLog,
  headerOf,
  SSE_HEADERS,
  sendJson,
  sseFrame,
  stripOws,
} from './wire.js';

export interface HttpListensOptions {
  readonly router: EventRouter;
  readonly budget: ListenBudget;
  readonly offer: ListenOffer;
  readonly serverInfo: ServerInfo;
  /** SSE keep-alive comment interval; 0 disables. */
  readonly keepAliveMs: number;
  readonly log: HttpLog;
  /**
   * Awaited before a stream opens: the scope's workspace loaded and its
   * resource states open, so the stream hears every change after its
   * acknowledgement and its URIs are looked up in a loaded workspace.
   */
  prepare?(scope: CallerScope): Promise<void>;
  /** Which URIs name a resource for this scope (the others cost no share of the budget). */
  names?(scope: CallerScope): (uri: string) => boolean;
}

export class HttpListens {
  readonly #options: HttpListensOptions;
  readonly #open = new Set<ListenStream>();

  constructor(options: HttpListensOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#open.size;
  }

  /** The listen request this endpoint serves itself, or undefined (the SDK answers it). */
  plan(headers: IncomingHttpHeaders, parsed: unknown): ListenRequest | undefined {
    const version = headerOf(headers['mcp-protocol-version']);
    const method = headerOf(headers['mcp-method']);
    if (version === undefined || stripOws(version) !== MODERN_PROTOCOL_VERSION) return undefined;
    if (method === undefined || stripOws(method) !== LISTEN_METHOD) return undefined;
    return parseListen(parsed);
  }

  async serve(res: ServerResponse, request: ListenRequest, scope: CallerScope): Promise<void> {
    const { router, budget, offer, serverInfo, keepAliveMs, log } = this.#options;
    let keepAlive: NodeJS.Timeout | undefined;
    let stream: ListenStream;
    let release: (() => void) | undefined;
    try {
      // Held first, so the workspace loaded for the stream is not unloaded before it opens.
      release = scope.hold();
      await this.#options.prepare?.(scope);
      if (res.destroyed || res.writableEnded) {
        release();
        return;
      }
      stream = openListen({
        request,
        offer,
        audience: audienceOf(scope, this.#options.names?.(scope)),
        router,
        budget,
        serverInfo,
        send: (message) => {
          if (!res.writableEnded) res.write(sseFrame(JSON.stringify(message)));
        },
        onClosed: () => {
          release?.();
          this.#open.delete(stream);
          if (keepAlive !== undefined) clearInterval(keepAlive);
          if (!res.writableEnded) res.end();
        },
      });
    } catch (error) {
      release?.();
      const refusal =
        error instanceof MoorError
          ? error
          : new MoorError('INTERNAL', 'the listen stream could not be opened');
      log('info', withTrace(`http: refused subscriptions/listen: ${refusal.message}`, request.traceId));
      const { code, message, data } = refusal.toJsonRpc();
      if (!res.headersSent)
        sendJson(res, refusal.spec.http, dispatchErrorBody(request.id, code, message, data));
      return;
    }
    this.#open.add(stream);
    res.writeHead(200, SSE_HEADERS);
    res.once('close', () => stream.close(false));
    stream.start();
    if (!stream.closed && keepAliveMs > 0) {
      keepAlive = setInterval(() => {
        if (!res.writableEnded) res.write(': keepalive\n\n');
      }, keepAliveMs);
      keepAlive.unref();
    }
  }

  /** Shutdown: every stream ends with its graceful result. */
  closeAll(): void {
    for (const stream of [...this.#open]) stream.close(true);
  }
}
