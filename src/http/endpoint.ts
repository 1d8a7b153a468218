/**
 * The daemon's stateless Streamable HTTP endpoint: `POST /mcp` for both MCP
 * eras, `GET /healthz`, and a graceful close. This file is the server's
 * lifecycle — it builds the two paths, listens, answers health, and drains on
 * close; each request passes intake (intake.ts: guards, route, body,
 * admission, moor headers) and is then served as an exchange (exchanges.ts).
 *
 * Two paths answer `/mcp`:
 * - the SDK's `createMcpHandler(factory, { legacy: 'reject' })` for modern
 *   traffic and moor's stateless legacy leg (legacy-leg.ts: the SDK's
 *   per-POST serving plus routing of posted responses, so elicitation and
 *   sampling work without sessions) for 2025-era traffic, mounted together
 *   with `toNodeHandler`, on the same cheap per-request factory as the
 *   socket (createServerFactory). They serve everything: listen streams,
 *   progress over SSE, MRTR, batches, every validation error;
 * - the lean path (lean-path.ts), which answers the hot methods of requests it
 *   fully understands with the same bytes, at a fraction of the cost.
 */

import http, { type ServerResponse } from 'node:http';
import net from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';
import type { AdmissionGate } from '../host/admission.js';
import type { CallerScope, CallWorkspace } from '../host/call-scope.js';
import type { Catalog } from '../host/catalog.js';
import { ListenBudget } from '../host/events/listen-budget.js';
import type { InputStateCodec } from '../host/input.js';
import { openResourceStates, resourceNamer } from '../host/resources.js';
import { createServerFactory, type HostExtension, type ServerIdentity } from '../host/server-factory.js';
import type { RequestObserver } from '../observe/observer.js';
import type { Incarnation } from '../protocol/hello.js';
import { Exchanges } from './exchanges.js';
import { isLoopbackHost, isWildcardHost } from './guards.js';
import { Intake, MAX_BODY, MCP_PATH, type PageHandler } from './intake.js';
import { LeanPath } from './lean/lean-path.js';
import { createLegacyLeg, ResponseRoutes, withLegacyLeg } from './legacy-leg.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  effectiveMaxConnections,
  KEEP_ALIVE_TIMEOUT_MS,
} from './limits.js';
import { HttpListens } from './listen.js';
import { RequestScope, type ScopeSource, SESSION_HEADER, WORKSPACE_HEADER } from './scope.js';
import { type HttpLog, sendJson } from './wire.js';

export interface HttpEndpointOptions extends ScopeSource {
  readonly host: string; // default '127.0.0.1'
  readonly port: number; // 0 = ephemeral
  /** A listening socket handed over by the daemon before this one: listened on instead of binding. */
  readonly inheritedListenerFd?: number | undefined;
  /** Bearer token; REQUIRED when host is not loopback. When set, every request must carry it. */
  readonly token?: string;
  /** Where the token lives (the state dir's http.token, or --token-file): a 401 tells clients. */
  readonly tokenFile?: string | undefined;
  readonly catalog: Catalog;
  readonly identity: ServerIdentity;
  readonly incarnation: Incarnation;
  readonly admission: AdmissionGate;
  onInternalError(error: unknown, tool: string): void;
  /** Protocol extensions on the SDK path (e.g. durable tasks). */
  readonly extensions?: readonly HostExtension[];
  /** Seals input rounds (a cluster's daemons share the key); default: the process's own. */
  readonly inputState?: InputStateCodec | undefined;
  readonly log: HttpLog;
  /** Log every answered request at debug (`--log-level debug`); off, the hot path builds no log line. */
  readonly logRequests?: boolean;
  /** The lean path for hot methods (default true); false sends everything to the SDK handler. */
  readonly lean?: boolean;
  /** SSE keep-alive comment interval (default 15 000 ms, the SDK's); 0 disables. */
  readonly keepAliveMs?: number;
  /**
   * HTTP connections held at once (default 512, lowered to half the soft
   * open-files limit); a connection beyond it is closed as soon as it is accepted.
   */
  readonly maxConnections?: number | undefined;
  /** How long a client may take to send its headers (default 10 s) and its whole request (30 s). */
  readonly headersTimeoutMs?: number | undefined;
  readonly requestTimeoutMs?: number | undefined;
  /**
   * The URI budget of listen streams (shared with the socket's, one per
   * daemon). Default: a budget of this endpoint's own with the default bounds.
   */
  readonly listenBudget?: ListenBudget;
  /** The workspaces of a session scope's rooms loaded now (whether a listen URI names a resource). */
  readonly loadedRooms?: (scope: CallerScope) => readonly CallWorkspace[];
  /** Tasks are served (the tasks extension is among `extensions`): listen streams honour `taskIds`. */
  readonly tasksServed?: boolean;
  /** Diagnostics: which path answers each admitted POST (tests pin the lean path's reach with it). */
  readonly onRoute?: (route: 'lean' | 'sdk', method: string | undefined) => void;
  /** Counts and traces every request (metrics, tracing); absent, nothing is observed. */
  readonly observer?: RequestObserver | undefined;
  /** GET routes beside /mcp and /healthz (`/metrics`, `/status`; see pages.ts), behind the same guards. */
  readonly pages?: ReadonlyMap<string, PageHandler> | undefined;
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
  /** The listening socket's descriptor (for a handoff's successor); undefined once closed. */
  listenerFd(): number | undefined;
}

const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** How long close() waits for answers already written (graceful listen results) to leave. */
const FLUSH_MS = 1_000;

export async function startHttpEndpoint(options: HttpEndpointOptions): Promise<HttpEndpoint> {
  const host = options.host || '127.0.0.1';
  if (!isLoopbackHost(host) && !options.token) {
    throw new MoorError(
      'USAGE',
      `Serving HTTP on ${host}, which is not a loopback address, needs a bearer token (--token-file): without one anyone on the network could call the tools.`,
    );
  }
  if (options.token !== undefined && options.token.length === 0)
    throw new MoorError('TOKEN_INVALID', 'The bearer token is empty.');
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const { log } = options;

  const factory = createServerFactory(options.catalog, {
    identity: options.identity,
    // The SDK path reads the moor headers again from the request it serves (intake checked them).
    scopeFor: (ctx) => {
      const headers = ctx.requestInfo?.headers;
      return new RequestScope(
        headers?.get(SESSION_HEADER) ?? undefined,
        headers?.get(WORKSPACE_HEADER) ?? undefined,
        options,
      );
    },
    onInternalError: options.onInternalError,
    ...(options.extensions !== undefined ? { extensions: options.extensions } : {}),
    inputState: options.inputState,
  });
  const responseRoutes = new ResponseRoutes();
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    responseMode: 'auto',
    keepAliveMs,
    maxRequestBodySize: MAX_BODY,
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
  // Listen streams hear the catalog's router: their scope's rooms, their session's tasks.
  const listens = new HttpListens({
    router: options.catalog.events,
    budget: options.listenBudget ?? new ListenBudget({ warn: (message) => log('warn', `http: ${message}`) }),
    offer: {
      prompts: options.catalog.prompts.length > 0,
      tasks: options.tasksServed === true,
    },
    serverInfo: options.identity,
    keepAliveMs,
    log,
    prepare: (scope) => openResourceStates(options.catalog, scope),
    names: (scope) => resourceNamer(options.catalog, scope, options.loadedRooms),
  });
  const exchanges = new Exchanges({
    listens,
    sdk: toNodeHandler(sdk, {
      maxRequestBodySize: MAX_BODY,
      onerror: (error) =>
        log('error', `http: the MCP handler failed: ${error.message}`, { stack: error.stack }),
    }),
    lean,
    log,
    logRequests: options.logRequests === true,
    ...(options.onRoute !== undefined ? { onRoute: options.onRoute } : {}),
    observer: options.observer,
  });

  let closing = false;
  const healthBody = JSON.stringify({ ok: true, incarnation: options.incarnation });
  const intake = new Intake({
    host,
    token: options.token,
    tokenFile: options.tokenFile,
    admission: options.admission,
    scopes: options,
    log,
    pages: options.pages,
    observer: options.observer,
    sink: {
      get closing() {
        return closing;
      },
      health: (res: ServerResponse) => {
        if (closing)
          sendJson(res, 503, JSON.stringify({ ok: false, closing: true, incarnation: options.incarnation }));
        else sendJson(res, 200, healthBody);
      },
      passThrough: (req, res) => exchanges.passThrough(req, res),
      exchange: (req, res, request) => exchanges.serve(req, res, request),
    },
  });

  const server = createServer(options, intake.receive, log);
  await listen(server, host, options.port, options.inheritedListenerFd, log);
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
    listenerFd: () => {
      if (closing) return undefined;
      const fd = (server as unknown as { _handle?: { fd?: number } | null })._handle?.fd;
      return typeof fd === 'number' && fd >= 0 ? fd : undefined;
    },
    close(graceMs: number): Promise<void> {
      closed ??= (async () => {
        closing = true;
        // Stop listening, but not node:http's close, which also drops idle connections: one accepted
        // a moment ago is idle until its request arrives, and dropping it resets a client that the
        // successor (or this daemon's 503) could have answered.
        const serverClosed = new Promise<void>((resolve) =>
          net.Server.prototype.close.call(server, () => resolve()),
        );
        await exchanges.whenIdle(graceMs);
        exchanges.interruptWork(graceMs);
        // Listen streams end with their graceful result; any SDK exchange left is aborted.
        listens.closeAll();
        await sdk.close();
        const deadline = Date.now() + FLUSH_MS;
        while (exchanges.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        // Connections accepted just before the close get their answer (each ends after it); what
        // stays is a client's idle keep-alive connection, closed now.
        const lingerUntil = Date.now() + LINGER_MS;
        while ((await openConnections(server)) > 0 && Date.now() < lingerUntil)
          await new Promise((r) => setTimeout(r, 10));
        server.closeAllConnections();
        await serverClosed;
        log('info', 'http: endpoint closed');
      })();
      return closed;
    },
  };
}

/** How long close() lets connections accepted just before it deliver their request and be answered. */
const LINGER_MS = 250;

function openConnections(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}

/** The node:http server, with the connection cap and the slow-client timeouts. */
function createServer(
  options: HttpEndpointOptions,
  receive: http.RequestListener,
  log: HttpLog,
): http.Server {
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // node:http refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  const server = http.createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // How often node:http looks for requests past their timeouts: often enough to honour short ones.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 2))),
    },
    receive,
  );
  server.maxConnections = effectiveMaxConnections(options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
  log('info', `http: at most ${server.maxConnections} connections at once`);
  // node:http closes a connection over the cap at once; say so, at most once a second.
  let lastDropLog = 0;
  server.on('drop', () => {
    const now = Date.now();
    if (now - lastDropLog < 1_000) return;
    lastDropLog = now;
    log('warn', `http: refused a connection: ${server.maxConnections} are open`);
  });
  return server;
}

async function listen(
  server: http.Server,
  host: string,
  port: number,
  inheritedFd: number | undefined,
  log: HttpLog,
): Promise<void> {
  if (inheritedFd !== undefined) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ fd: inheritedFd }, () => {
          server.off('error', reject);
          resolve();
        });
      });
      log(
        'info',
        `http: serving on the listening socket the previous daemon handed over (fd ${inheritedFd})`,
      );
      return;
    } catch (error) {
      // Not a listening socket after all (a stray variable, a closed descriptor): bind as usual.
      log(
        'warn',
        `http: the handed-over socket (fd ${inheritedFd}) cannot be used: ${(error as Error).message}`,
      );
    }
  }
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new MoorError(
          'LISTEN_FAILED',
          `Cannot serve HTTP on ${host}:${port}: ${error.code ?? error.message}`,
        ),
      );
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
