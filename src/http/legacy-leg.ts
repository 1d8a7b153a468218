/**
 * moor's stateless legacy (2025-era) HTTP leg, in place of the SDK's
 * `legacyStatelessFallback`: the same per-POST serving — a fresh instance
 * from the factory on a fresh `WebStandardStreamableHTTPServerTransport`
 * with `sessionIdGenerator: undefined`, the same 405 / 500 answers and the
 * same teardown — plus one thing the SDK's leg cannot do: server→client
 * requests.
 *
 * When a tool asks the client for input (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`), the request rides the tools/call
 * POST's own SSE stream, and the client answers with a NEW POST carrying a
 * JSON-RPC response. Stateless serving sends that POST to another fresh
 * instance, which drops it. Here every outbound request gets an id of 128
 * random bits (`moor-<random>`) recorded in a routing table with the
 * Moor-Session of the POST it rode on; a posted response whose id is in the
 * table and whose POST names the same Moor-Session is handed to the waiting
 * instance (with its original id) instead. The id is unguessable, so only the
 * client that saw the request can answer it, and the session check means even
 * a leaked id cannot be answered from another session. Anything else reaches
 * the posting instance, which drops it. The posting request itself is still
 * served by the SDK transport, so its answer (202, 406, 400 …) is the SDK's
 * exactly. An entry lives only while its POST's exchange is open.
 */
import { randomBytes } from 'node:crypto';
import {
  type AuthInfo,
  type ClientCapabilities,
  isJsonContentType,
  isLegacyRequest,
  type JSONRPCMessage,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
  McpServer,
  type McpServerFactory,
  type MessageExtraInfo,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../errors.js';

type RequestId = string | number;
type Deliver = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

interface Pending {
  readonly originalId: RequestId;
  readonly deliver: Deliver;
  readonly owner: Set<string>;
  /** The Moor-Session of the POST the request rode on (undefined: none). */
  readonly session: string | undefined;
}

/** Outbound server→client requests awaiting a posted response, by the id moor gave them. */
export class ResponseRoutes {
  readonly #pending = new Map<string, Pending>();

  /** How many outbound requests are waiting (tests check that nothing leaks). */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Wraps a connected transport: its outbound requests get unique ids, and
   * posted responses it receives for other instances' requests of the same
   * session are passed on. `session` is the Moor-Session of the POST this
   * transport serves. Returns the detach to call when the exchange ends
   * (drops its entries).
   */
  attach(transport: WebStandardStreamableHTTPServerTransport, session: string | undefined): () => void {
    const owned = new Set<string>();
    /** original id → minted id, for this instance's `notifications/cancelled`. */
    const minted = new Map<RequestId, string>();
    const deliver: Deliver = transport.onmessage?.bind(transport) ?? noop;
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      if (isRequest(message)) {
        const id = `moor-${randomBytes(16).toString('base64url')}`;
        this.#pending.set(id, { originalId: message.id, deliver, owner: owned, session });
        owned.add(id);
        minted.set(message.id, id);
        try {
          return await send({ ...message, id }, options);
        } catch (error) {
          this.#drop(id);
          minted.delete(message.id);
          throw error;
        }
      }
      if (isCancellation(message)) {
        const id = minted.get(message.params.requestId);
        if (id !== undefined) {
          this.#drop(id);
          minted.delete(message.params.requestId);
          return send({ ...message, params: { ...message.params, requestId: id } }, options);
        }
      }
      return send(message, options);
    };
    transport.onmessage = (message, extra) => {
      if (isResponse(message) && typeof message.id === 'string') {
        const pending = this.#pending.get(message.id);
        if (pending !== undefined && pending.session === session) {
          this.#drop(message.id);
          pending.deliver({ ...message, id: pending.originalId } as JSONRPCMessage, extra);
          return;
        }
      }
      deliver(message, extra);
    };
    return () => {
      for (const id of owned) this.#pending.delete(id);
      owned.clear();
      minted.clear();
    };
  }

  #drop(id: string): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    pending.owner.delete(id);
  }
}

export interface LegacyLegOptions {
  readonly keepAliveMs?: number;
  readonly maxRequestBodySize: number;
  readonly onerror?: (error: Error) => void;
  /** The routing table (default: a private one). */
  readonly routes?: ResponseRoutes;
}

export type LegacyLeg = (request: Request, options?: McpHandlerRequestOptions) => Promise<Response>;

/** The stateless legacy leg: `legacyStatelessFallback`'s serving, with response routing. */
export function createLegacyLeg(factory: McpServerFactory, options: LegacyLegOptions): LegacyLeg {
  const routes = options.routes ?? new ResponseRoutes();
  const report = (error: unknown) => {
    try {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // reporting only
    }
  };
  return async (request, requestOptions) => {
    if (request.method.toUpperCase() !== 'POST')
      return jsonRpcError(405, JsonRpcCode.TransportError, 'Method not allowed.');
    const authInfo: AuthInfo | undefined = requestOptions?.authInfo;
    try {
      const product = await factory({
        era: 'legacy',
        ...(authInfo !== undefined && { authInfo }),
        requestInfo: request,
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        ...(options.keepAliveMs !== undefined && { keepAliveMs: options.keepAliveMs }),
        maxRequestBodySize: options.maxRequestBodySize,
      });
      assumeClientCapabilities(product instanceof McpServer ? product.server : product);
      await product.connect(transport);
      // intake has already copied an in-band session key into the header.
      const detach = routes.attach(transport, request.headers.get('moor-session') ?? undefined);
      const teardown = () => {
        detach();
        transport.close().catch(noop);
        product.close().catch(noop);
      };
      request.signal?.addEventListener('abort', teardown, { once: true });
      const response = await transport.handleRequest(request, {
        ...(authInfo !== undefined && { authInfo }),
        ...(requestOptions?.parsedBody !== undefined && { parsedBody: requestOptions.parsedBody }),
      });
      if (
        response.body === null ||
        mediaTypeEssence(response.headers.get('content-type')) !== 'text/event-stream'
      ) {
        teardown();
        return response;
      }
      const reader = response.body.getReader();
      let toreDown = false;
      const completeExchange = () => {
        if (!toreDown) {
          toreDown = true;
          teardown();
        }
      };
      const monitoredBody = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          try {
            const { done, value } = await reader.read();
            if (done) {
              completeExchange();
              controller.close();
              return;
            }
            if (value !== undefined) controller.enqueue(value);
          } catch (error) {
            completeExchange();
            controller.error(error);
          }
        },
        cancel: (reason) => {
          completeExchange();
          return reader.cancel(reason).catch(noop);
        },
      });
      return new Response(monitoredBody, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      report(error);
      return jsonRpcError(
        500,
        -32603,
        'Internal server error',
        echoableRequestId(requestOptions?.parsedBody),
      );
    }
  };
}

/**
 * One handler for both eras: legacy traffic (by the SDK's own classifier,
 * `isLegacyRequest`) to the legacy leg, everything else to `modern` (a
 * `createMcpHandler` with `legacy: 'reject'`).
 */
export function withLegacyLeg(
  modern: McpHttpHandler,
  leg: LegacyLeg,
  maxRequestBodySize: number,
): McpHttpHandler {
  let closed = false;
  const fetch = async (request: Request, options?: McpHandlerRequestOptions): Promise<Response> => {
    // The entry's 415 (and its closed check) come before classification: let it answer them.
    if (
      closed ||
      (request.method.toUpperCase() === 'POST' && !isJsonContentType(request.headers.get('content-type')))
    )
      return modern.fetch(request, options);
    let legacy: boolean;
    try {
      legacy = await isLegacyRequest(request, options?.parsedBody, { maxRequestBodySize });
    } catch {
      return modern.fetch(request, options); // the entry answers what it cannot classify
    }
    return legacy ? leg(request, options) : modern.fetch(request, options);
  };
  return {
    fetch,
    notify: modern.notify,
    bus: modern.bus,
    close: () => {
      closed = true;
      return modern.close();
    },
  };
}

/**
 * What a stateless legacy instance takes the client to support. Such an
 * instance never sees the client's `initialize` (it went to another
 * instance, and there is no session to find it by), so the SDK would refuse
 * every server→client request. moor instead sends form elicitation,
 * sampling (without tools) and roots/list, and lets the client's own answer
 * decide: a client without the capability answers with an error (an SDK
 * client: -32601), which reaches the tool as a failed round, and the call
 * ends with the SDK's isError result. URL elicitation and sampling with tools
 * stay refused: they need an explicit declaration.
 */
const assumedClientCapabilities = (): ClientCapabilities => ({
  elicitation: { form: {} },
  sampling: {},
  roots: {},
});

function assumeClientCapabilities(server: Server): void {
  // The SDK keeps a connection's initialize-declared capabilities here (Server._clientCapabilities;
  // @modelcontextprotocol/server is pinned, and test/http/legacy-roundtrip.test.ts pins this).
  const slot = server as unknown as { _clientCapabilities?: ClientCapabilities };
  slot._clientCapabilities ??= assumedClientCapabilities();
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
}

function isCancellation(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { method: 'notifications/cancelled'; params: { requestId: RequestId } } {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return false;
  const params = (message as { params?: { requestId?: unknown } }).params;
  return typeof params?.requestId === 'string' || typeof params?.requestId === 'number';
}

function jsonRpcError(status: number, code: number, message: string, id: RequestId | null = null): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code, message }, id },
    { status, ...(status === 405 && { headers: { Allow: 'POST' } }) },
  );
}

/** The id the SDK echoes on an entry-built error: a single request's string or number id, else null. */
function echoableRequestId(body: unknown): RequestId | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function mediaTypeEssence(header: string | null): string | undefined {
  if (!header) return undefined;
  const essence = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
  return essence === '' ? undefined : essence;
}

function noop(): void {}
