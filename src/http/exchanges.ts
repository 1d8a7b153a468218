/**
 * The exchange: what happens to a POST intake admitted. It is answered by the
 * lean path when the lean path fully understands it, else by the SDK handler;
 * it is aborted when its stream closes before the answer is written, ended
 * without a result when the client cancels it, and answered with -32051 when
 * shutdown cuts it off. The live exchanges are what close() drains; one
 * exchange, and the answers moor writes for it itself, is admitted-exchange.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeIncomingMessageLike, NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { JsonRpcCode, MoorError } from '../errors.js';
import type { CallerScope } from '../host/call-scope.js';
import type { RequestObserver } from '../observe/observer.js';
import { withTrace } from '../protocol/trace.js';
import { runWithTrace } from '../protocol/trace-scope.js';
import { Exchange } from './admitted-exchange.js';
import type { AdmittedRequest } from './intake.js';
import type { LeanPath } from './lean/lean-path.js';
import type { HttpListens } from './listen.js';
import {
  dispatchErrorBody,
  echoableId,
  entryErrorBody,
  type HttpLog,
  isPlainObject,
  sendJson,
} from './wire.js';

export interface ExchangeOptions {
  /** The SDK path: modern handler and legacy leg behind `toNodeHandler`. */
  readonly sdk: NodeMcpRequestHandler;
  /** The lean path, or undefined when it is off. */
  readonly lean: LeanPath | undefined;
  readonly log: HttpLog;
  /** Log each answered request at debug (built only when asked for: it is the hot path). */
  readonly logRequests?: boolean;
  /** moor's own listen streams (well-formed 2026-07-28 subscriptions/listen). */
  readonly listens?: HttpListens;
  readonly onRoute?: (route: 'lean' | 'sdk', method: string | undefined) => void;
  /** Counts and traces every exchange (metrics, tracing). */
  readonly observer?: RequestObserver | undefined;
}

/** Every live exchange of one endpoint, and how each is answered. */
export class Exchanges {
  readonly #live = new Set<Exchange>();
  readonly #sdk: NodeMcpRequestHandler;
  readonly #lean: LeanPath | undefined;
  readonly #log: HttpLog;
  readonly #logRequests: boolean;
  readonly #listens: HttpListens | undefined;
  readonly #onRoute: ExchangeOptions['onRoute'];
  readonly #observer: RequestObserver | undefined;
  /** Woken when the last working exchange ends while close() waits for it. */
  #idleWaiters: Array<() => void> = [];

  constructor(options: ExchangeOptions) {
    this.#sdk = options.sdk;
    this.#lean = options.lean;
    this.#log = options.log;
    this.#logRequests = options.logRequests === true;
    this.#listens = options.listens;
    this.#onRoute = options.onRoute;
    this.#observer = options.observer;
  }

  /** Live exchanges, listen streams included. */
  get size(): number {
    return this.#live.size;
  }

  /** Live exchanges doing work (listen streams do none). */
  workCount(): number {
    let n = 0;
    for (const exchange of this.#live) if (!exchange.request.listen) n++;
    return n;
  }

  /**
   * Answers an admitted POST: registers it, then moor's listen stream, the
   * lean path or the SDK handler, inside the request's trace scope (every
   * log line its work writes names the trace).
   */
  serve(req: IncomingMessage, res: ServerResponse, request: AdmittedRequest): void {
    runWithTrace(request.trace, () => this.#serve(req, res, request));
  }

  #serve(req: IncomingMessage, res: ServerResponse, request: AdmittedRequest): void {
    if (request.cancellation) {
      this.#cancelMatching(
        (request.parsed as { params?: unknown }).params,
        request.scope.requestedSessionKey,
        req.socket,
      );
    }
    const exchange = new Exchange(res, request);
    const observer = this.#observer;
    if (observer !== undefined) {
      exchange.slot = observer.begin('http', request.parsed);
      exchange.span = observer.span('http', request.parsed, request.scope.requestedSessionKey);
    }
    this.#live.add(exchange);
    res.once('close', () => this.#ended(exchange));
    const listen = request.listen ? this.#listens?.plan(req.headers, request.parsed) : undefined;
    if (listen !== undefined && this.#listens !== undefined) {
      let scope: CallerScope;
      try {
        scope = exchange.scope();
      } catch (error) {
        const refusal = error instanceof MoorError ? error : new MoorError('INTERNAL', 'no scope');
        const { code, message, data } = refusal.toJsonRpc();
        sendJson(res, refusal.spec.http, dispatchErrorBody(listen.id, code, message, data));
        return;
      }
      void this.#listens.serve(res, listen, scope);
      return;
    }
    const lean = this.#lean;
    const plan =
      lean !== undefined && request.parsed !== undefined ? lean.plan(req.headers, request.parsed) : undefined;
    if (plan !== undefined) {
      this.#onRoute?.('lean', request.method);
      void lean?.serve(plan, res, exchange);
      return;
    }
    this.#onRoute?.('sdk', request.method);
    this.#serveSdk(req, res, exchange, request.body, request.parsed);
  }

  /** A request that is not an admitted POST (GET / DELETE /mcp): the SDK answers it (405 from the legacy leg). */
  passThrough(req: IncomingMessage, res: ServerResponse): void {
    this.#serveSdk(req, res, undefined);
  }

  /** Resolves once no exchange does work any more, or after graceMs. */
  async whenIdle(graceMs: number): Promise<void> {
    if (this.workCount() > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, graceMs));
        this.#idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.#idleWaiters = [];
  }

  /** Shutdown after the grace period: every working exchange is answered -32051 and aborted. */
  interruptWork(graceMs: number): void {
    const unfinished = [...this.#live].filter((exchange) => !exchange.request.listen);
    if (unfinished.length > 0)
      this.#log('warn', `http: cancelling ${unfinished.length} request(s) still running after ${graceMs} ms`);
    for (const exchange of unfinished) {
      const { method, id, trace } = exchange.request;
      this.#log('warn', withTrace(`http: interrupted ${method ?? 'request'}`, trace), { method, id });
      exchange.terminate();
    }
  }

  #ended(exchange: Exchange): void {
    this.#live.delete(exchange);
    const { method, id, trace, listen } = exchange.request;
    if (this.#logRequests && !listen && exchange.res.writableFinished) {
      // Answered requests are logged at debug, as on the socket.
      const ms = Math.round((performance.now() - exchange.started) * 1000) / 1000;
      this.#log('debug', withTrace(`http: ${method ?? 'request'} ok`, trace), { method, id, ms });
    }
    exchange.request.release();
    if (!exchange.res.writableFinished) {
      exchange.settle('cancelled');
      exchange.abort();
    }
    if (exchange.slot >= 0)
      this.#observer?.end(exchange.slot, exchange.outcome, exchange.span, exchange.errorType);
    if (this.#idleWaiters.length > 0 && this.workCount() === 0) {
      for (const wake of this.#idleWaiters.splice(0)) wake();
    }
  }

  /**
   * A posted `notifications/cancelled` (how a 2025-era client cancels over
   * stateless HTTP, where the notification reaches a fresh server instance
   * that knows nothing): the endpoint finds the request itself — same
   * JSON-RPC id and same Moor-Session, exactly one in flight — aborts its
   * work and ends its stream without a result. The notification is then
   * answered as usual (202). Session-less requests all share "no session",
   * and their ids are small guessable numbers, so one session-less client
   * could cancel another's: a cancellation without a session reaches only a
   * request on the connection it came on.
   */
  #cancelMatching(params: unknown, sessionKey: string | undefined, connection: unknown): void {
    const requestId = isPlainObject(params) ? params.requestId : undefined;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const matches = [...this.#live].filter(
      ({ request, res }) =>
        !request.listen &&
        request.id === requestId &&
        request.scope.requestedSessionKey === sessionKey &&
        (sessionKey !== undefined || res.socket === connection),
    );
    const match = matches.length === 1 ? (matches[0] as Exchange) : undefined;
    if (match !== undefined) {
      const { method, id, trace } = match.request;
      this.#log('info', withTrace(`http: cancelled ${method ?? 'request'} by the client`, trace), {
        method,
        id,
      });
      match.cancel();
    } else if (matches.length > 1)
      this.#log('info', `http: ambiguous cancellation of request ${JSON.stringify(requestId)} ignored`);
  }

  #serveSdk(
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange | undefined,
    body?: Buffer,
    parsed?: unknown,
  ): void {
    const source: NodeIncomingMessageLike =
      body === undefined
        ? req
        : {
            method: req.method,
            url: req.url,
            headers: req.headers,
            async *[Symbol.asyncIterator]() {
              if (body.length > 0) yield body;
            },
          };
    const sink = exchange === undefined ? res : exchange.sdkResponse();
    this.#sdk(source, sink, parsed).catch((error: unknown) => {
      this.#log('error', `http: answering a request failed: ${(error as Error)?.message ?? String(error)}`);
      if (!res.headersSent)
        sendJson(
          res,
          500,
          entryErrorBody(JsonRpcCode.InternalError, 'Internal server error', echoableId(parsed)),
        );
      else res.destroy();
    });
  }
}
