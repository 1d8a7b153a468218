/**
 * Request intake: everything decided about a request before anything answers
 * it, once and in this order — Host/Origin (403) → `/healthz` (no token) →
 * `/.well-known/…` (404) → bearer token, or the status page's login link and
 * cookie (401, 303; page-login.ts) → route (404, 405) → body limit (413) → content type (415) → nesting (400) → admission (503,
 * `Retry-After: 1`) → Moor-Session / Moor-Workspace (400). A POST that passes
 * every step becomes one AdmittedRequest, which the exchange serves.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE, isJsonContentType } from '@modelcontextprotocol/server';
import { ERRORS, JsonRpcCode, MoorError } from '../errors.js';
import { type AdmissionGate, holdsAdmission, NOT_ADMITTED, type Refusal } from '../host/admission.js';
import type { RequestObserver } from '../observe/observer.js';
import { type ClientNamed, clientNamedBy } from '../protocol/client-named.js';
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from '../protocol/json-shape.js';
import { traceIdOf, withTrace } from '../protocol/trace.js';
import { allowedHostnames, type BodyResult, OriginGuard, readBody, TokenGuard } from './guards.js';
import { PAGE_COOKIE_PATH, PageLogin } from './page-login.js';
import {
  inBandSessionKey,
  RequestScope,
  type ScopeSource,
  SESSION_HEADER,
  WORKSPACE_HEADER,
} from './scope.js';
import { Unauthorized } from './unauthorized.js';
import {
  dispatchErrorBody,
  echoableId,
  entryErrorBody,
  type HttpLog,
  headerOf,
  isPlainObject,
  type JsonRpcId,
  sendJson,
} from './wire.js';

export const MCP_PATH = '/mcp';
export const HEALTH_PATH = '/healthz';
const WELL_KNOWN_PREFIX = '/.well-known/';
export const MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE;

/** One POST that passed intake: what the exchange needs, decided once. */
export interface AdmittedRequest {
  readonly body: Buffer;
  /** The body as JSON, or undefined when it is empty or not JSON (the SDK answers those with its own errors). */
  readonly parsed: unknown;
  /** The id to echo on an error answered before dispatch. */
  readonly id: JsonRpcId | null;
  readonly method: string | undefined;
  /** The W3C trace id of the request's `_meta`, for log lines only. */
  readonly trace: string | undefined;
  /** A `subscriptions/listen` stream: long-lived, does no work, holds no admission slot. */
  readonly listen: boolean;
  /** A posted `notifications/cancelled`, which cancels a matching exchange. */
  readonly cancellation: boolean;
  readonly scope: RequestScope;
  /** Frees the admission slot (a no-op for requests that hold none); call once the exchange ends. */
  readonly release: () => void;
}

/** What intake hands requests to. */
export interface IntakeSink {
  /** True once the endpoint is closing: new work is refused with 503. */
  readonly closing: boolean;
  /** `GET /healthz` (or HEAD). */
  health(res: ServerResponse): void;
  /** Any other method on `/mcp` (GET, DELETE): the SDK answers it. */
  passThrough(req: IncomingMessage, res: ServerResponse): void;
  exchange(req: IncomingMessage, res: ServerResponse, request: AdmittedRequest): void;
}

export interface IntakeOptions {
  readonly host: string;
  readonly token: string | undefined;
  /** Where the token lives, for the 401's advice (the state dir's http.token or --token-file). */
  readonly tokenFile?: string | undefined;
  readonly admission: AdmissionGate;
  readonly scopes: ScopeSource;
  readonly log: HttpLog;
  readonly sink: IntakeSink;
  /** Pages a person or a scraper GETs (`/metrics`, `/status`), behind the same Host/Origin and token guards. */
  readonly pages?: ReadonlyMap<string, PageHandler> | undefined;
  /** Counts refused requests (metrics, tracing). */
  readonly observer?: RequestObserver | undefined;
}

/** Answers a GET (or HEAD) of one page route. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void;

// Transport refusals are the same bytes every time: built once.
const HEALTH_METHOD_BODY = entryErrorBody(JsonRpcCode.TransportError, 'Method not allowed.');
const NOT_FOUND_BODY = entryErrorBody(JsonRpcCode.TransportError, `Not found: MCP is served at ${MCP_PATH}.`);
const TOO_LARGE_BODY = entryErrorBody(
  JsonRpcCode.TransportError,
  `Payload Too Large: Request body must not exceed ${MAX_BODY} bytes`,
);
const MEDIA_TYPE_BODY = entryErrorBody(
  JsonRpcCode.TransportError,
  'Unsupported Media Type: Content-Type must be application/json',
);
const INTERNAL_ERROR_BODY = entryErrorBody(JsonRpcCode.InternalError, 'Internal server error');
const HEALTH_METHOD_HEADERS = { allow: 'GET' } as const;
const CLOSE_HEADERS = { connection: 'close' } as const;
const BUSY_HEADERS = { 'retry-after': '1' } as const;
const SHUTTING_DOWN_HEADERS = { 'retry-after': '1', connection: 'close' } as const;
const REFUSED_SHUTTING_DOWN_MESSAGE =
  'moor is shutting down and accepts no new requests; retry once the daemon is back.';

export class Intake {
  readonly #originGuard: OriginGuard;
  readonly #tokenGuard: TokenGuard | undefined;
  readonly #pageLogin: PageLogin | undefined;
  readonly #unauthorized: Unauthorized;
  readonly #admission: AdmissionGate;
  readonly #scopes: ScopeSource;
  readonly #log: HttpLog;
  readonly #sink: IntakeSink;
  readonly #pages: ReadonlyMap<string, PageHandler> | undefined;
  readonly #observer: RequestObserver | undefined;

  constructor(options: IntakeOptions) {
    this.#originGuard = new OriginGuard(allowedHostnames(options.host));
    const tokenGuard = options.token ? new TokenGuard(options.token) : undefined;
    this.#tokenGuard = tokenGuard;
    this.#pageLogin =
      options.token && tokenGuard
        ? new PageLogin(options.token, (presented) => tokenGuard.matches(presented))
        : undefined;
    this.#unauthorized = new Unauthorized(options.tokenFile);
    this.#admission = options.admission;
    this.#scopes = options.scopes;
    this.#log = options.log;
    this.#sink = options.sink;
    this.#pages = options.pages;
    this.#observer = options.observer;
  }

  /** The node:http request listener. */
  readonly receive = (req: IncomingMessage, res: ServerResponse): void => {
    // A closing endpoint ends each connection after its answer: the client's next request opens a
    // new one, which the daemon after this one (a handoff's successor) answers.
    if (this.#sink.closing) res.shouldKeepAlive = false;
    const guard = this.#originGuard.check(req);
    if (!guard.ok) {
      sendJson(res, 403, entryErrorBody(JsonRpcCode.TransportError, guard.message));
      return;
    }
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const route = query < 0 ? url : url.slice(0, query);
    // Liveness needs no token: load balancers probe it, and it tells only that this daemon is up.
    if (route === HEALTH_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        sendJson(res, 405, HEALTH_METHOD_BODY, HEALTH_METHOD_HEADERS);
      else this.#sink.health(res);
      return;
    }
    // OAuth discovery (the MCP Inspector probes /.well-known/oauth-*): there is none, so a 404 before
    // the token check sends such clients on to the bearer header the 401 names.
    if (route.startsWith(WELL_KNOWN_PREFIX)) {
      sendJson(res, 404, NOT_FOUND_BODY);
      return;
    }
    if (this.#tokenGuard !== undefined && !this.#pageAdmitted(req, res, route, url, query)) return;
    if (route !== MCP_PATH) {
      const page = this.#pages?.get(route);
      if (page === undefined) sendJson(res, 404, NOT_FOUND_BODY);
      else if (req.method !== 'GET' && req.method !== 'HEAD')
        sendJson(res, 405, HEALTH_METHOD_BODY, HEALTH_METHOD_HEADERS);
      else page(req, res);
      return;
    }
    if (req.method !== 'POST') {
      this.#sink.passThrough(req, res); // GET / DELETE: 405 from the stateless legacy leg
      return;
    }
    readBody(req, MAX_BODY, (result) => this.#received(req, res, result));
  };

  /**
   * The token check. The status page also takes its login link and its
   * cookie (GET/HEAD only); /mcp and every other route take the header alone.
   * False when the request was answered here (401, or the login redirect).
   */
  #pageAdmitted(
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    url: string,
    query: number,
  ): boolean {
    if (
      this.#pageLogin !== undefined &&
      route === PAGE_COOKIE_PATH &&
      (req.method === 'GET' || req.method === 'HEAD')
    ) {
      const verdict = this.#pageLogin.check(req, res, route, query < 0 ? '' : url.slice(query + 1));
      if (verdict === 'cookie') return true;
      if (verdict === 'redirected') return false;
      if (verdict === 'wrong-token') {
        this.#unauthorized.send(req, res, 'wrong');
        return false;
      }
    }
    const refusal = this.#tokenGuard?.refusal(req);
    if (refusal === undefined) return true;
    this.#unauthorized.send(req, res, refusal);
    return false;
  }

  #received(req: IncomingMessage, res: ServerResponse, result: BodyResult): void {
    if (result.kind === 'too-large') {
      sendJson(res, 413, TOO_LARGE_BODY, CLOSE_HEADERS);
      return;
    }
    if (result.kind === 'aborted') return;
    try {
      const request = this.#admit(req, res, result.body);
      if (request !== undefined) this.#sink.exchange(req, res, request);
    } catch (error) {
      this.#log('error', `http: ${(error as Error)?.message ?? String(error)}`, {
        stack: (error as Error)?.stack,
      });
      sendJson(res, 500, INTERNAL_ERROR_BODY);
    }
  }

  /** Content type, admission and scope of a read body; undefined when the request was answered here. */
  #admit(req: IncomingMessage, res: ServerResponse, body: Buffer): AdmittedRequest | undefined {
    if (!isJsonContentType(headerOf(req.headers['content-type']))) {
      sendJson(res, 415, MEDIA_TYPE_BODY);
      return undefined;
    }
    let parsed: unknown;
    if (body.length > 0) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        // Not JSON (or a BOM the SDK strips): the SDK answers it with its own parse error.
      }
    }
    const id = echoableId(parsed);
    // Nesting this deep would overflow the stack of whatever walks the body next (the SDK re-serialises it).
    if (parsed !== undefined && nestsDeeperThan(body)) {
      const { jsonRpc, http } = ERRORS.MESSAGE_TOO_DEEP;
      sendJson(res, http, entryErrorBody(jsonRpc, TOO_DEEP_MESSAGE, id));
      return undefined;
    }
    const method = isPlainObject(parsed) && typeof parsed.method === 'string' ? parsed.method : undefined;
    const listen = method === 'subscriptions/listen';
    const cancellation = method === 'notifications/cancelled' && !('id' in (parsed as object));
    // A client's answer to an elicitation/sampling request resumes work already admitted.
    const answer = method === undefined && isResponseBody(parsed);
    if (this.#sink.closing || this.#admission.closed) {
      this.#refuse(res, id, 'shutting-down', method, parsed);
      return undefined;
    }
    // A cancellation only lightens the load, and a posted answer's call was admitted already:
    // neither takes a slot (nor do listen streams and task polls, see holdsAdmission).
    let release: () => void = noop;
    if (!cancellation && !answer && holdsAdmission(method)) {
      const entered = this.#admission.tryEnter();
      if (typeof entered === 'string') {
        this.#refuse(res, id, entered, method, parsed);
        return undefined;
      }
      release = entered;
    }
    // A request without Moor-Session may name its session in `_meta`; the header wins when both are sent.
    // It becomes the header, so the SDK path (which reads headers) sees the same key.
    const inBand = req.headers[SESSION_HEADER] === undefined ? inBandSessionKey(parsed) : undefined;
    if (inBand !== undefined) req.headers[SESSION_HEADER] = inBand;
    let scope: RequestScope;
    try {
      scope = new RequestScope(req.headers[SESSION_HEADER], req.headers[WORKSPACE_HEADER], this.#scopes);
      // A named workspace is resolved now, so a bad one is a 400 rather than a failure mid-call.
      if (scope.workspace !== undefined) scope.resolve();
      // Both paths (lean and SDK) pass here: the one place every request's client is seen.
      const client = scope.requestedSessionKey === undefined ? undefined : clientNamedIn(method, parsed);
      if (client !== undefined) this.#scopes.onClient?.(scope.requestedSessionKey as string, client);
    } catch (error) {
      release();
      if (
        !(error instanceof MoorError && (error.code === 'BAD_HEADER' || error.code === 'WORKSPACE_INVALID'))
      )
        throw error;
      sendJson(res, error.spec.http, dispatchErrorBody(id, error.spec.jsonRpc, error.message));
      return undefined;
    }
    return { body, parsed, id, method, trace: traceIdOf(parsed), listen, cancellation, scope, release };
  }

  #refuse(
    res: ServerResponse,
    id: JsonRpcId | null,
    reason: Refusal,
    method: string | undefined,
    body: unknown,
  ): void {
    this.#observer?.refused('http', body, reason);
    this.#log('warn', withTrace(`http: refused ${method ?? 'request'}: ${reason}`, traceIdOf(body)), {
      method,
      refused: reason,
    });
    if (reason === 'busy') {
      const { jsonRpc, http } = ERRORS.BUSY;
      const message = `moor is busy: ${this.#admission.limit} requests are already in flight; retry in a moment.`;
      sendJson(res, http, dispatchErrorBody(id, jsonRpc, message, NOT_ADMITTED), BUSY_HEADERS);
    } else {
      const { jsonRpc, http } = ERRORS.SHUTTING_DOWN;
      const refusal = dispatchErrorBody(id, jsonRpc, REFUSED_SHUTTING_DOWN_MESSAGE, NOT_ADMITTED);
      sendJson(res, http, refusal, SHUTTING_DOWN_HEADERS);
    }
  }
}

function noop(): void {}

function clientNamedIn(method: string | undefined, parsed: unknown): ClientNamed | undefined {
  if (method === undefined || !isPlainObject(parsed)) return undefined;
  return clientNamedBy(method, parsed.params);
}

/** A posted JSON-RPC response, or a non-empty batch of nothing but responses. */
function isResponseBody(body: unknown): boolean {
  const one = (m: unknown) =>
    isPlainObject(m) && !('method' in m) && 'id' in m && ('result' in m || 'error' in m);
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}
