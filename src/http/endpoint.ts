/**
 * The daemon's stateless Streamable HTTP endpoint: `POST /mcp` for both MCP
 * eras, `GET /healthz`, and a graceful close. This file is the server's
 * lifecycle — it builds the two paths, listens, answers health, and drains on
 * close; each request passes intake (intake.ts: guards, route, body,
 * admission, moor headers) and is then served as an exchange (exchange.ts).
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
 */
import http, { type ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type ServerEventBus } from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';
import type { AdmissionGate } from '../host/admission.js';
import type { Catalog } from '../host/catalog.js';
import { createServerFactory, type HostExtension, type ServerIdentity } from '../host/server-factory.js';
import type { RequestObserver } from '../observe/observer.js';
import type { Incarnation } from '../protocol/hello.js';
import { Exchanges } from './exchange.js';
import { isLoopbackHost, isWildcardHost } from './guards.js';
import { Intake, MAX_BODY, MCP_PATH, type PageHandler } from './intake.js';
import { LeanPath } from './lean.js';
import { createLegacyLeg, ResponseRoutes, withLegacyLeg } from './legacy-leg.js';
import { type Binder, RequestBinding, SESSION_HEADER, WORKSPACE_HEADER } from './scope.js';
import { type HttpLog, sendJson } from './wire.js';

export interface HttpEndpointOptions extends Binder {
  readonly host: string; // default '127.0.0.1'
  readonly port: number; // 0 = ephemeral
  /** Bearer token; REQUIRED when host is not loopback. When set, every request must carry it. */
  readonly token?: string;
  readonly catalog: Catalog;
  readonly identity: ServerIdentity;
  readonly incarnation: Incarnation;
  readonly admission: AdmissionGate;
  onInternalError(error: unknown, tool: string): void;
  /** Protocol extensions on the SDK path (e.g. durable tasks). */
  readonly extensions?: readonly HostExtension[];
  readonly log: HttpLog;
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
    bind: (ctx) => {
      const headers = ctx.requestInfo?.headers;
      return new RequestBinding(
        headers?.get(SESSION_HEADER) ?? undefined,
        headers?.get(WORKSPACE_HEADER) ?? undefined,
        options,
      );
    },
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
  const exchanges = new Exchanges({
    sdk: toNodeHandler(sdk, {
      maxRequestBodySize: MAX_BODY,
      onerror: (error) =>
        log('error', `http: the MCP handler failed: ${error.message}`, { stack: error.stack }),
    }),
    lean,
    log,
    ...(options.onRoute !== undefined ? { onRoute: options.onRoute } : {}),
    observer: options.observer,
  });

  let closing = false;
  const healthBody = JSON.stringify({ ok: true, incarnation: options.incarnation });
  const intake = new Intake({
    host,
    token: options.token,
    admission: options.admission,
    binder: options,
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

  const server = http.createServer(intake.receive);
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
        await exchanges.whenIdle(graceMs);
        exchanges.interruptWork(graceMs);
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

function listen(server: http.Server, host: string, port: number): Promise<void> {
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
