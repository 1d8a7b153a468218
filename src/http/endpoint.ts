/**
 * The daemon's stateless Streamable HTTP endpoint (issue 3): `POST /mcp` for
 * both MCP eras, `GET /healthz`, guards in front, the shared admission gate,
 * and a graceful close.
 *
 * Two paths answer `/mcp`:
 * - the SDK's `createMcpHandler(factory, { legacy: 'reject' })` for modern
 *   traffic and moor's stateless legacy leg (legacy-leg.ts: the SDK's
 *   per-POST serving plus routing of posted responses, so elicitation and
 *   sampling work without sessions) for 2025-era traffic, mounted together
 *   with `toNodeHandler`, on the same cheap per-request factory as the
 *   socket (createServerFactory). They serve everything: listen streams,
 *   progress over SSE, MRTR, batches, every validation error;
 * - the lean path (lean.ts), which answers the hot methods of requests it
 *   fully understands with the same bytes, at a fraction of the cost.
 *
 * Request order: Host/Origin (403) → bearer token (401) → route → body
 * (413) → content type (415) → admission (503) → Moor-Session /
 * Moor-Workspace (400) → lean path or SDK handler.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import {
  type NodeIncomingMessageLike,
  type NodeServerResponseLike,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isJsonContentType,
  type McpRequestContext,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { JsonRpcCode, MoorError } from '../errors.js';
import type { AdmissionGate } from '../host/admission.js';
import type { Binding } from '../host/binding.js';
import type { Catalog } from '../host/catalog.js';
import type { Pack } from '../host/pack.js';
import { createServerFactory, type HostExtension, type ServerIdentity } from '../host/server-factory.js';
import { type Incarnation, SESSION_KEY_PATTERN } from '../protocol/hello.js';
import { traceIdOf } from '../protocol/trace.js';
import {
  allowedHostnames,
  isLoopbackHost,
  isWildcardHost,
  OriginGuard,
  readBody,
  TokenGuard,
} from './guards.js';
import { type LeanExchange, LeanPath } from './lean.js';
import { createLegacyLeg, ResponseRoutes, withLegacyLeg } from './legacy-leg.js';
import {
  decodeHeaderValue,
  dispatchErrorBody,
  echoableId,
  entryErrorBody,
  headerOf,
  isPlainObject,
  JSON_HEADERS,
  type JsonRpcId,
  SSE_HEADERS,
  sendJson,
  sseFrame,
} from './wire.js';

export interface HttpEndpointOptions {
  readonly host: string; // default '127.0.0.1'
  readonly port: number; // 0 = ephemeral
  /** Bearer token; REQUIRED when host is not loopback. When set, every request must carry it. */
  readonly token?: string;
  readonly catalog: Catalog;
  readonly identity: ServerIdentity;
  readonly incarnation: Incarnation;
  readonly admission: AdmissionGate;
  /**
   * Binding for one request: session key from the Moor-Session header,
   * workspace from Moor-Workspace (absolute path) or undefined for the daemon
   * default. Throws MoorError('WORKSPACE_INVALID', message) when the
   * workspace is not an existing directory inside the allowed roots.
   */
  bindForRequest(request: { sessionKey: string | undefined; workspace: string | undefined }): Binding;
  onInternalError(error: unknown, tool: string): void;
  /** Protocol extensions on the SDK path (e.g. durable tasks). */
  readonly extensions?: readonly HostExtension[];
  log(level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
  /** The lean path for hot methods (default true); false sends everything to the SDK handler. */
  readonly lean?: boolean;
  /** SSE keep-alive comment interval (default 15 000 ms, the SDK's); 0 disables. */
  readonly keepAliveMs?: number;
  /**
   * Where list-changed and resource-updated events come from for
   * `subscriptions/listen` streams (publish `{ kind: 'tools_list_changed' }`,
   * `{ kind: 'resource_updated', uri }`, …). Default: a private in-memory bus.
   */
  readonly bus?: ServerEventBus;
  /** Diagnostics: which path answers each admitted POST (tests pin the lean path's reach with it). */
  readonly onRoute?: (route: 'lean' | 'sdk', method: string | undefined) => void;
}

export interface HttpEndpoint {
  /** The MCP endpoint, e.g. `http://127.0.0.1:7410/mcp`. */
  readonly url: string;
  /** Stop admitting, finish or abort in-flight, end listen streams gracefully. */
  close(graceMs: number): Promise<void>;
  /** Resolves once the lean path took its static answers from the SDK (in the background after start). */
  readonly leanReady: Promise<void>;
  /** Diagnostics: server→client requests (legacy elicitation, sampling) awaiting the client's posted answer. */
  readonly awaitingClient: () => number;
}

export const MCP_PATH = '/mcp';
export const HEALTH_PATH = '/healthz';
export const SESSION_HEADER = 'moor-session';
export const WORKSPACE_HEADER = 'moor-workspace';
const MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** How long close() waits for answers already written (graceful listen results) to leave. */
const FLUSH_MS = 1_000;

/**
 * `data` of the -32050/-32051 errors, as the socket hop sends them
 * (src/daemon/gated-transport.ts): whether the request ran, so a client or
 * proxy knows what it may safely re-send.
 */
const NOT_ADMITTED = { executed: false } as const;
const INTERRUPTED = { executed: 'unknown' } as const;

const SHUTTING_DOWN_MESSAGE =
  'moor is shutting down: the daemon stopped before this request finished; it may or may not have completed. Retry once the daemon is back.';
const REFUSED_SHUTTING_DOWN_MESSAGE =
  'moor is shutting down and accepts no new requests; retry once the daemon is back.';

export async function startHttpEndpoint(options: HttpEndpointOptions): Promise<HttpEndpoint> {
  const host = options.host || '127.0.0.1';
  if (!isLoopbackHost(host) && !options.token) {
    throw new MoorError(
      'USAGE',
      `Serving HTTP on ${host}, which is not a loopback address, needs a bearer token (--token-file): without one anyone on the network could call the tools.`,
    );
  }
  if (options.token !== undefined && options.token.length === 0)
    throw new MoorError('USAGE', 'The bearer token is empty.');
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const { log } = options;

  const factory = createServerFactory(options.catalog, {
    identity: options.identity,
    bind: (ctx) => bindingFromHeaders(ctx, options),
    onInternalError: options.onInternalError,
    ...(options.extensions !== undefined ? { extensions: options.extensions } : {}),
  });
  const responseRoutes = new ResponseRoutes();
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    responseMode: 'auto',
    keepAliveMs,
    maxRequestBodySize: MAX_BODY,
    ...(options.bus !== undefined ? { bus: options.bus } : {}),
    onerror: (error) => log('info', `http: ${error.message}`),
  });
  // 2025-era traffic: moor's stateless legacy leg (legacy-leg.ts), which routes posted
  // responses to the instance whose elicitation/sampling request they answer.
  const legacyLeg = createLegacyLeg(factory, {
    keepAliveMs,
    maxRequestBodySize: MAX_BODY,
    routes: responseRoutes,
    onerror: (error) => log('info', `http: ${error.message}`),
  });
  const sdk = withLegacyLeg(modern, legacyLeg, MAX_BODY);
  const sdkNode = toNodeHandler(sdk, {
    maxRequestBodySize: MAX_BODY,
    onerror: (error) =>
      log('error', `http: the MCP handler failed: ${error.message}`, { stack: error.stack }),
  });
  const lean =
    options.lean === false
      ? undefined
      : new LeanPath({
          catalog: options.catalog,
          sdk,
          keepAliveMs,
          onInternalError: options.onInternalError,
          log,
        });

  const originGuard = new OriginGuard(allowedHostnames(host));
  const tokenGuard = options.token ? new TokenGuard(options.token) : undefined;
  const exchanges = new Set<Exchange>();
  let closing = false;
  let idleWaiters: Array<() => void> = [];
  const workCount = () => {
    let n = 0;
    for (const exchange of exchanges) if (!exchange.listen) n++;
    return n;
  };
  const healthBody = JSON.stringify({ ok: true, incarnation: options.incarnation });

  const refuse = (
    res: ServerResponse,
    id: JsonRpcId | null,
    reason: 'busy' | 'shutting-down',
    method: string | undefined,
    body: unknown,
  ) => {
    log('warn', withTrace(`http: refused ${method ?? 'request'}: ${reason}`, traceIdOf(body)), {
      method,
      refused: reason,
    });
    if (reason === 'busy') {
      const message = `moor is busy: ${options.admission.limit} requests are already in flight; retry in a moment.`;
      sendJson(res, 503, dispatchErrorBody(id, JsonRpcCode.Busy, message, NOT_ADMITTED), {
        'retry-after': '1',
      });
    } else {
      const body503 = dispatchErrorBody(
        id,
        JsonRpcCode.Unavailable,
        REFUSED_SHUTTING_DOWN_MESSAGE,
        NOT_ADMITTED,
      );
      sendJson(res, 503, body503, { 'retry-after': '1', connection: 'close' });
    }
  };

  /**
   * A posted `notifications/cancelled` (how a 2025-era client cancels over
   * stateless HTTP, where the notification reaches a fresh server instance
   * that knows nothing): the endpoint finds the request itself — same
   * JSON-RPC id and same Moor-Session, exactly one in flight — aborts its
   * work and ends its stream without a result. The notification is then
   * answered as usual (202).
   */
  const cancelMatching = (params: unknown, sessionKey: string | undefined) => {
    const requestId = isPlainObject(params) ? params.requestId : undefined;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const matches = [...exchanges].filter(
      (exchange) => !exchange.listen && exchange.id === requestId && exchange.scope.sessionKey === sessionKey,
    );
    const match = matches.length === 1 ? (matches[0] as Exchange) : undefined;
    if (match !== undefined) {
      log('info', withTrace(`http: cancelled ${match.method ?? 'request'} by the client`, match.trace), {
        method: match.method,
        id: match.id,
      });
      match.cancel();
    } else if (matches.length > 1)
      log('info', `http: ambiguous cancellation of request ${JSON.stringify(requestId)} ignored`);
  };

  const serveSdk = (
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange | undefined,
    body?: Buffer,
    parsed?: unknown,
  ) => {
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
    sdkNode(source, sink, parsed).catch((error: unknown) => {
      log('error', `http: answering a request failed: ${(error as Error)?.message ?? String(error)}`);
      if (!res.headersSent)
        sendJson(
          res,
          500,
          entryErrorBody(JsonRpcCode.InternalError, 'Internal server error', echoableId(parsed)),
        );
      else res.destroy();
    });
  };

  const handlePost = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    if (!isJsonContentType(headerOf(req.headers['content-type']))) {
      sendJson(
        res,
        415,
        entryErrorBody(-32000, 'Unsupported Media Type: Content-Type must be application/json'),
      );
      return;
    }
    let parsed: unknown;
    let isJson = false;
    if (body.length > 0) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
        isJson = true;
      } catch {
        // Not JSON (or a BOM the SDK strips): the SDK answers it with its own parse error.
      }
    }
    const id = echoableId(parsed);
    const method =
      isJson && isPlainObject(parsed) && typeof parsed.method === 'string' ? parsed.method : undefined;
    const listen = method === 'subscriptions/listen';
    const cancellation = method === 'notifications/cancelled' && !('id' in (parsed as object));
    // A client's answer to an elicitation/sampling request resumes work already admitted.
    const answer = isJson && method === undefined && isResponseBody(parsed);
    if (closing || options.admission.closed) {
      refuse(res, id, 'shutting-down', method, parsed);
      return;
    }
    // Listen streams are long-lived and do no work, and a cancellation only lightens the load:
    // neither counts against the in-flight limit (nor does a posted answer: its call was admitted).
    let release: () => void = noop;
    // tasks/* polls are cheap and must never wait behind (or be refused for) long calls.
    if (!listen && !cancellation && !answer && !method?.startsWith('tasks/')) {
      const entered = options.admission.tryEnter();
      if (typeof entered === 'string') {
        refuse(res, id, entered, method, parsed);
        return;
      }
      release = entered;
    }
    let scope: RequestScope;
    try {
      scope = requestScope(req, options);
    } catch (error) {
      release();
      if (!(error instanceof MoorError && (error.code === 'USAGE' || error.code === 'WORKSPACE_INVALID')))
        throw error;
      sendJson(res, 400, dispatchErrorBody(id, JsonRpcCode.InvalidParams, error.message));
      return;
    }
    if (cancellation) cancelMatching((parsed as { params?: unknown }).params, scope.sessionKey);
    const exchange = new Exchange(res, id, method, traceIdOf(parsed), listen, scope);
    exchanges.add(exchange);
    res.once('close', () => {
      exchanges.delete(exchange);
      release();
      if (!res.writableFinished) exchange.abort();
      if (closing && idleWaiters.length > 0 && workCount() === 0) {
        for (const wake of idleWaiters.splice(0)) wake();
      }
    });
    const plan = lean !== undefined && isJson ? lean.plan(req.headers, parsed) : undefined;
    if (plan !== undefined) {
      options.onRoute?.('lean', method);
      void lean?.serve(plan, res, exchange);
      return;
    }
    options.onRoute?.('sdk', method);
    serveSdk(req, res, exchange, body, isJson ? parsed : undefined);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const guard = originGuard.check(req);
    if (!guard.ok) {
      sendJson(res, 403, entryErrorBody(-32000, guard.message));
      return;
    }
    if (tokenGuard !== undefined) {
      const challenge = tokenGuard.challenge(req);
      if (challenge !== undefined) {
        sendJson(
          res,
          401,
          entryErrorBody(-32000, 'Unauthorized: this endpoint needs a valid bearer token.'),
          {
            'www-authenticate': challenge,
          },
        );
        return;
      }
    }
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const route = query < 0 ? url : url.slice(0, query);
    if (route === HEALTH_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendJson(res, 405, entryErrorBody(-32000, 'Method not allowed.'), { allow: 'GET' });
      } else if (closing) {
        sendJson(res, 503, JSON.stringify({ ok: false, closing: true, incarnation: options.incarnation }));
      } else sendJson(res, 200, healthBody);
      return;
    }
    if (route !== MCP_PATH) {
      sendJson(res, 404, entryErrorBody(-32000, `Not found: MCP is served at ${MCP_PATH}.`));
      return;
    }
    if (req.method !== 'POST') {
      serveSdk(req, res, undefined); // GET / DELETE: 405 from the stateless legacy leg
      return;
    }
    readBody(req, MAX_BODY, (result) => {
      if (result.kind === 'too-large') {
        sendJson(
          res,
          413,
          entryErrorBody(-32000, `Payload Too Large: Request body must not exceed ${MAX_BODY} bytes`),
          { connection: 'close' },
        );
        return;
      }
      if (result.kind === 'aborted') return;
      try {
        handlePost(req, res, result.body);
      } catch (error) {
        log('error', `http: ${(error as Error)?.message ?? String(error)}`, {
          stack: (error as Error)?.stack,
        });
        sendJson(res, 500, entryErrorBody(JsonRpcCode.InternalError, 'Internal server error'));
      }
    });
  };

  const server = http.createServer(onRequest);
  await listen(server, host, options.port);
  // Primed after start, off the start-up path: the SDK's first requests are slow while cold.
  const leanReady =
    lean === undefined
      ? Promise.resolve()
      : new Promise<void>((resolve) => setImmediate(resolve)).then(() => lean.prime(() => !closing));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const url = `http://${urlHost(host)}:${port}${MCP_PATH}`;
  log('info', `http: serving MCP on ${url}${lean === undefined ? ' (lean path off)' : ''}`);

  let closed: Promise<void> | undefined;
  return {
    url,
    leanReady,
    awaitingClient: () => responseRoutes.size,
    close(graceMs: number): Promise<void> {
      closed ??= (async () => {
        closing = true;
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (workCount() > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.max(0, graceMs));
            idleWaiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        idleWaiters = [];
        const unfinished = [...exchanges].filter((exchange) => !exchange.listen);
        if (unfinished.length > 0)
          log('warn', `http: cancelling ${unfinished.length} request(s) still running after ${graceMs} ms`);
        for (const exchange of unfinished) {
          log('warn', withTrace(`http: interrupted ${exchange.method ?? 'request'}`, exchange.trace), {
            method: exchange.method,
            id: exchange.id,
          });
          exchange.terminate();
        }
        // Listen streams end with their graceful result; any SDK exchange left is aborted.
        await sdk.close();
        const deadline = Date.now() + FLUSH_MS;
        while (exchanges.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        server.closeAllConnections();
        await serverClosed;
        log('info', 'http: endpoint closed');
      })();
      return closed;
    },
  };
}

/** Moor-Session and Moor-Workspace of one request, and its binding (resolved at most once). */
interface RequestScope {
  readonly sessionKey: string | undefined;
  readonly workspace: string | undefined;
  binding(): Binding;
}

/** Reads and checks the moor headers; resolves the binding now when a workspace is named, so a bad one is a 400. */
function requestScope(req: IncomingMessage, options: HttpEndpointOptions): RequestScope {
  const { sessionKey, workspace } = moorHeaders(req.headers[SESSION_HEADER], req.headers[WORKSPACE_HEADER]);
  let bound: Binding | undefined;
  const scope: RequestScope = {
    sessionKey,
    workspace,
    binding: () => {
      bound ??= options.bindForRequest({ sessionKey, workspace });
      return bound;
    },
  };
  if (workspace !== undefined) scope.binding();
  return scope;
}

function moorHeaders(
  sessionHeader: string | string[] | undefined,
  workspaceHeader: string | string[] | undefined,
): { sessionKey: string | undefined; workspace: string | undefined } {
  const sessionKey = headerOf(sessionHeader);
  if (sessionKey !== undefined && !SESSION_KEY_PATTERN.test(sessionKey)) {
    throw new MoorError(
      'USAGE',
      'Invalid Moor-Session header: a session key is 8-128 characters of [A-Za-z0-9._~-].',
    );
  }
  const raw = headerOf(workspaceHeader);
  if (raw === undefined) return { sessionKey, workspace: undefined };
  const workspace = decodeHeaderValue(raw.trim());
  if (workspace === undefined || workspace.length === 0) {
    throw new MoorError(
      'USAGE',
      'Invalid Moor-Workspace header: send an absolute path, or =?base64?…?= of its UTF-8 bytes.',
    );
  }
  if (!path.isAbsolute(workspace)) {
    throw new MoorError(
      'USAGE',
      `Invalid Moor-Workspace header: ${JSON.stringify(workspace)} is not an absolute path.`,
    );
  }
  return { sessionKey, workspace };
}

/**
 * The factory's binding on the SDK path, read from the request headers. Lazy:
 * list and discover never touch it, and the headers were already checked
 * before the request reached the SDK.
 */
function bindingFromHeaders(ctx: McpRequestContext, options: HttpEndpointOptions): Binding {
  const headers = ctx.requestInfo?.headers;
  const { sessionKey, workspace } = moorHeaders(
    headers?.get(SESSION_HEADER) ?? undefined,
    headers?.get(WORKSPACE_HEADER) ?? undefined,
  );
  let bound: Binding | undefined;
  const resolve = () => {
    bound ??= options.bindForRequest({ sessionKey, workspace });
    return bound;
  };
  return {
    // A keyless request may still get the daemon's default session key (bindForRequest decides).
    get sessionKey() {
      return sessionKey ?? resolve().sessionKey;
    },
    get workspaceRoot() {
      return resolve().workspaceRoot;
    },
    stateOf<S>(pack: Pack<S>): S {
      return resolve().stateOf(pack);
    },
  };
}

/** One admitted POST: what shutdown needs to answer or abort it. */
class Exchange implements LeanExchange {
  #controller: AbortController | undefined;
  #hijacked = false;
  /** The answer is an SSE stream whose head is already written (Node keeps no readable copy of writeHead's headers). */
  #sse = false;

  constructor(
    readonly res: ServerResponse,
    readonly id: JsonRpcId | null,
    readonly method: string | undefined,
    /** The W3C trace id of the request's `_meta`, for log lines only. */
    readonly trace: string | undefined,
    readonly listen: boolean,
    readonly scope: RequestScope,
  ) {}

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  binding(): Binding {
    return this.scope.binding();
  }

  streaming(): void {
    this.#sse = true;
  }

  abort(reason?: unknown): void {
    this.#controller?.abort(reason);
  }

  /**
   * The response the SDK handler writes to: the real one until shutdown
   * answers the request itself, then a sink that drops the SDK's late writes.
   */
  sdkResponse(): NodeServerResponseLike {
    const res = this.res;
    const sink: NodeServerResponseLike = {
      writeHead: (status, headers) => {
        if (this.#hijacked) return sink;
        const type = Object.entries(headers ?? {}).find(
          ([name]) => name.toLowerCase() === 'content-type',
        )?.[1];
        this.#sse = typeof type === 'string' && type.startsWith('text/event-stream');
        res.writeHead(status, headers);
        return sink;
      },
      write: (chunk) => (this.#hijacked ? true : res.write(chunk)),
      end: (chunk) => {
        if (!this.#hijacked) res.end(chunk);
        return sink;
      },
      on: (event, listener) => {
        res.on(event, listener);
        return sink;
      },
      get destroyed() {
        return res.destroyed;
      },
    };
    return sink;
  }

  /** Cancelled by the client: abort the work and end the stream without a result (JSON-RPC sends none). */
  cancel(): void {
    const res = this.res;
    if (!res.writableEnded) {
      this.#hijacked = true;
      if (!res.headersSent) res.writeHead(200, SSE_HEADERS);
      res.end();
    }
    this.abort(new MoorError('USAGE', 'cancelled by the client'));
  }

  /** Shutdown after the grace period: answer with a clear JSON-RPC error, then abort the work. */
  terminate(): void {
    const res = this.res;
    if (!res.writableEnded) {
      this.#hijacked = true;
      const body = dispatchErrorBody(this.id, JsonRpcCode.Unavailable, SHUTTING_DOWN_MESSAGE, INTERRUPTED);
      if (!res.headersSent) {
        res.writeHead(200, { ...JSON_HEADERS, connection: 'close' });
        res.end(body);
      } else if (this.#sse && this.id !== null) {
        res.end(sseFrame(body));
      } else res.destroy();
    }
    this.abort(new MoorError('USAGE', SHUTTING_DOWN_MESSAGE));
  }
}

function noop(): void {}

/** A posted JSON-RPC response, or a non-empty batch of nothing but responses. */
function isResponseBody(body: unknown): boolean {
  const one = (m: unknown) =>
    isPlainObject(m) && !('method' in m) && 'id' in m && ('result' in m || 'error' in m);
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}

/** ` trace=<id>` appended so a request's lines can be grepped by trace (the id only, never tracestate or baggage). */
function withTrace(message: string, traceId: string | undefined): string {
  return traceId === undefined ? message : `${message} trace=${traceId}`;
}

function listen(server: http.Server, host: string, port: number): Promise<void> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(new MoorError('USAGE', `Cannot serve HTTP on ${host}:${port}: ${error.code ?? error.message}`));
    };
    server.once('error', onError);
    server.listen(port, bare, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function urlHost(host: string): string {
  if (isWildcardHost(host)) return '127.0.0.1';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.includes(':') ? `[${bare}]` : bare;
}
