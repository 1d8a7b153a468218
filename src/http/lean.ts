/**
 * The lean path: moor's own answer to the hot methods over HTTP, without a
 * per-request SDK Server, transport or web-stream. The SDK's stateless
 * handler costs ~400-700 µs of CPU per request on a 2-core machine (bench/http.mjs),
 * almost all of it in the per-request Web-standard machinery; this path
 * answers the same requests from the Catalog and callTool/readResource and
 * writes the exact bytes the SDK would have written.
 *
 * The rule: the lean path takes a request only when it fully understands it
 * and knows the SDK would dispatch it to moor's handler (every validation
 * rung passes). Anything else — errors in headers or envelope, progress
 * tokens (they need SSE), MRTR material, batches, listen streams, unknown
 * methods or params, unusual `_meta` keys — goes to the SDK handler
 * unchanged, so every rejection keeps the SDK's own status and body. Durable
 * tasks are the SDK path's too: a tools/call whose envelope declares the
 * io.modelcontextprotocol/tasks extension, any call of a task-capable tool,
 * and every tasks/* request (the tasks extension is installed there).
 *
 * Result shaping follows the SDK's encode steps:
 * - modern (2026-07-28): the tools/call result as the SDK's result schema
 *   orders it (content, structuredContent, isError), then `resultType`, the
 *   cache fields for cacheable methods, then `_meta` with
 *   `io.modelcontextprotocol/serverInfo`; the response object is
 *   `{result, jsonrpc, id}`, errors `{jsonrpc, id, error}`; JSON on HTTP 200.
 * - legacy (2025, stateless): the same result without stamps, framed as the
 *   single SSE event the SDK's legacy transport writes.
 * Static answers (tools/list, server/discover) are not re-derived at all:
 * they are taken from the SDK handler once, in the background right after
 * start (until then those requests simply take the SDK path), and replayed
 * with the request's id spliced in. Legacy `initialize` stays on the SDK
 * path (once per client; its params validation is the SDK's to keep).
 *
 * test/http/lean-parity.test.ts sends a corpus of requests through this
 * path and through the SDK path and asserts status, content type and body
 * bytes identical.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  type McpHttpHandler,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../errors.js';
import type { Binding } from '../host/binding.js';
import type { Catalog } from '../host/catalog.js';
import { readResource } from '../host/resources.js';
import { callTool } from '../host/tool-call.js';
import { CORPUS_CACHE_HINT, MODERN_PROTOCOL_VERSION, TASKS_EXTENSION_ID } from '../protocol/constants.js';
import { type StaticAnswer, withoutTools } from './lean-variants.js';
import {
  decodeHeaderValue,
  dispatchErrorBody,
  type HttpLog,
  headerOf,
  isPlainObject,
  JSON_HEADERS,
  type JsonRpcId,
  onlyKeys,
  SSE_HEADERS,
  sseFrame,
  stripOws,
} from './wire.js';

export type Era = 'modern' | 'legacy';

/** What the lean path will do with a request it recognised. */
export type LeanPlan =
  | {
      readonly kind: 'static';
      readonly era: Era;
      readonly id: JsonRpcId;
      readonly answer: StaticAnswer;
      /** tools/list for a caller whose active workspace allows no writes, when the lists differ. */
      readonly readOnly?: StaticAnswer;
    }
  | {
      readonly kind: 'call';
      readonly era: Era;
      readonly id: JsonRpcId;
      readonly name: string;
      readonly args: Record<string, unknown> | undefined;
    }
  | { readonly kind: 'read'; readonly era: Era; readonly id: JsonRpcId; readonly uri: string }
  | { readonly kind: 'accepted' };

/** What one lean exchange needs from the endpoint. */
export interface LeanExchange {
  readonly signal: AbortSignal;
  binding(): Binding;
  /** Called when the answer becomes an open SSE stream before its result (slow legacy answers). */
  streaming(): void;
  /** Answers the request with a 500 (something failed before any answer was written). */
  fail(): void;
  /** Called when the answer is a JSON-RPC error (metrics, tracing), with its code. */
  failed(errorType?: string): void;
}

export interface LeanOptions {
  readonly catalog: Catalog;
  readonly sdk: McpHttpHandler;
  /** SSE keep-alive for slow legacy answers (the SDK's default is 15 s); 0 disables. */
  readonly keepAliveMs: number;
  onInternalError(error: unknown, tool: string): void;
  readonly log: HttpLog;
}

const PRIME_ID = '__moor_lean_prime__';
const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'];
/** `_meta` keys a lean modern request may carry: the envelope and W3C trace context. */
const MODERN_META_KEYS: ReadonlySet<string> = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  ...TRACE_KEYS,
]);
const LEGACY_META_KEYS: ReadonlySet<string> = new Set(TRACE_KEYS);
const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'method', 'params']);
const CALL_PARAMS: ReadonlySet<string> = new Set(['_meta', 'name', 'arguments']);
const READ_PARAMS: ReadonlySet<string> = new Set(['_meta', 'uri']);
const LIST_PARAMS: ReadonlySet<string> = new Set(['_meta', 'cursor']);
const META_ONLY: ReadonlySet<string> = new Set(['_meta']);
const ENVELOPE_MEMO_LIMIT = 256;
const noProgress = async (): Promise<void> => {};

export class LeanPath {
  readonly #catalog: Catalog;
  readonly #options: LeanOptions;
  readonly #static = new Map<string, StaticAnswer>();
  /** `,"_meta":{…serverInfo…}` exactly as the SDK stamps it, or undefined when priming failed. */
  #modernMeta: string | undefined;
  /** Tools whose results the lean path may shape (object-shaped structuredContent). */
  readonly #leanTools: ReadonlySet<string>;
  /** Envelope validity by the `_meta` object's JSON, decided once by the SDK's own classifier. */
  readonly #envelopeMemo = new Map<string, boolean>();

  /**
   * Until prime() has run, only what needs no primed answer is lean (legacy
   * tools/call and resources/read); everything else goes to the SDK handler,
   * which is always correct.
   */
  constructor(options: LeanOptions) {
    this.#options = options;
    this.#catalog = options.catalog;
    this.#leanTools = new Set(
      options.catalog.tools
        .filter((tool) => tool.outputSchema === undefined || tool.outputSchema.type === 'object')
        // Task-capable tools (and their input rounds) are the tasks extension's, on the SDK path.
        .filter((tool) => options.catalog.tool(tool.name)?.definition.task === undefined)
        .map((tool) => tool.name),
    );
  }

  /**
   * Takes the static answers (and the serverInfo stamp) from the SDK handler
   * itself, once. Runs in the background at start: the first SDK requests
   * cost ~100 ms of cold start that the daemon should not wait for.
   */
  async prime(shouldLog: () => boolean = () => true): Promise<void> {
    const options = this.#options;
    const modernMetaEnvelope = {
      [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION,
      [CLIENT_CAPABILITIES_META_KEY]: {},
    };
    const primes: Array<{ key: string; headers: Record<string, string>; body: unknown }> = [
      {
        key: 'modern tools/list',
        headers: { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': 'tools/list' },
        body: { jsonrpc: '2.0', id: PRIME_ID, method: 'tools/list', params: { _meta: modernMetaEnvelope } },
      },
      {
        key: 'modern server/discover',
        headers: { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': 'server/discover' },
        body: {
          jsonrpc: '2.0',
          id: PRIME_ID,
          method: 'server/discover',
          params: { _meta: modernMetaEnvelope },
        },
      },
      {
        key: 'legacy tools/list',
        headers: { 'mcp-protocol-version': '2025-11-25' },
        body: { jsonrpc: '2.0', id: PRIME_ID, method: 'tools/list' },
      },
    ];
    for (const prime of primes) {
      try {
        const response = await options.sdk.fetch(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...prime.headers,
            },
            body: JSON.stringify(prime.body),
          }),
        );
        const text = await response.text();
        const marker = JSON.stringify(PRIME_ID);
        const at = text.indexOf(marker);
        const contentType = response.headers.get('content-type');
        if (response.status !== 200 || at < 0 || text.indexOf(marker, at + 1) >= 0 || contentType === null) {
          throw new Error(`unexpected answer (HTTP ${response.status}): ${text.slice(0, 200)}`);
        }
        this.#static.set(prime.key, {
          status: 200,
          headers: contentType === 'text/event-stream' ? SSE_HEADERS : JSON_HEADERS,
          before: text.slice(0, at),
          after: text.slice(at + marker.length),
        });
        if (prime.key === 'modern server/discover') {
          const meta = (JSON.parse(text) as { result?: { _meta?: unknown } }).result?._meta;
          if (isPlainObject(meta)) this.#modernMeta = `,"_meta":${JSON.stringify(meta)}`;
        }
      } catch (error) {
        if (!shouldLog()) return;
        options.log('warn', `http lean path: ${prime.key} stays on the SDK path`, {
          error: (error as Error)?.message ?? String(error),
        });
      }
    }
    this.#primeReadOnlyLists();
  }

  /** tools/list varies by caller when the catalog has write tools: the read-only variant, or none (SDK path). */
  #primeReadOnlyLists(): void {
    const writeTools = new Set(this.#catalog.writeToolNames);
    if (writeTools.size === 0) return;
    for (const key of ['modern tools/list', 'legacy tools/list']) {
      const full = this.#static.get(key);
      const variant = full && withoutTools(full, JSON.stringify(PRIME_ID), writeTools);
      if (variant === undefined) this.#static.delete(key);
      else this.#static.set(`${key} read-only`, variant);
    }
  }

  /** The static plan for tools/list: both variants when they differ, none when one is missing. */
  #toolsList(era: Era, id: JsonRpcId): LeanPlan | undefined {
    const key = `${era} tools/list`;
    const answer = this.#static.get(key);
    if (answer === undefined) return undefined;
    if (this.#catalog.writeToolNames.length === 0) return { kind: 'static', era, id, answer };
    const readOnly = this.#static.get(`${key} read-only`);
    return readOnly === undefined ? undefined : { kind: 'static', era, id, answer, readOnly };
  }

  /**
   * The plan for a request the lean path fully understands, else undefined
   * (the request goes to the SDK handler). Pure: reads, never writes.
   */
  plan(headers: IncomingHttpHeaders, body: unknown): LeanPlan | undefined {
    if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return undefined;
    const params = body.params;
    const meta = isPlainObject(params) ? params._meta : undefined;
    if (isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta) {
      return this.#planModern(headers, body, params as Record<string, unknown>, meta);
    }
    return this.#planLegacy(headers, body, params, meta);
  }

  #planModern(
    headers: IncomingHttpHeaders,
    body: Record<string, unknown>,
    params: Record<string, unknown>,
    meta: Record<string, unknown>,
  ): LeanPlan | undefined {
    const id = body.id;
    if (!isRequestId(id) || !onlyKeys(body, ENVELOPE_KEYS)) return undefined;
    const method = body.method as string;
    if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return undefined;
    if (!(CLIENT_CAPABILITIES_META_KEY in meta) || !onlyKeys(meta, MODERN_META_KEYS)) return undefined;
    // The standard headers, as the SDK's classifier and header rung read them.
    const version = headerOf(headers['mcp-protocol-version']);
    if (version === undefined || stripOws(version) !== MODERN_PROTOCOL_VERSION) return undefined;
    const methodHeader = headerOf(headers['mcp-method']);
    if (methodHeader === undefined || stripOws(methodHeader) !== method) return undefined;

    let plan: LeanPlan | undefined;
    switch (method) {
      case 'tools/call': {
        if (this.#modernMeta === undefined || !onlyKeys(params, CALL_PARAMS)) return undefined;
        // A call that declares the tasks extension may get a task: never answered here.
        if (declaresTasks(meta[CLIENT_CAPABILITIES_META_KEY])) return undefined;
        const name = params.name;
        const args = params.arguments;
        if (typeof name !== 'string' || !this.#nameHeaderMatches(headers, name)) return undefined;
        if (!this.#callable(name, args)) return undefined;
        plan = { kind: 'call', era: 'modern', id, name, args: args as Record<string, unknown> | undefined };
        break;
      }
      case 'resources/read': {
        if (this.#modernMeta === undefined || !onlyKeys(params, READ_PARAMS)) return undefined;
        const uri = params.uri;
        if (typeof uri !== 'string' || !this.#nameHeaderMatches(headers, uri)) return undefined;
        plan = { kind: 'read', era: 'modern', id, uri };
        break;
      }
      case 'tools/list': {
        if (!onlyKeys(params, LIST_PARAMS) || !optionalString(params.cursor)) return undefined;
        plan = this.#toolsList('modern', id);
        if (plan === undefined) return undefined;
        break;
      }
      case 'server/discover': {
        const answer = this.#static.get('modern server/discover');
        if (answer === undefined || !onlyKeys(params, META_ONLY)) return undefined;
        plan = { kind: 'static', era: 'modern', id, answer };
        break;
      }
      default:
        return undefined;
    }
    return this.#envelopeValid(meta) ? plan : undefined;
  }

  #planLegacy(
    headers: IncomingHttpHeaders,
    body: Record<string, unknown>,
    params: unknown,
    meta: unknown,
  ): LeanPlan | undefined {
    const version = headerOf(headers['mcp-protocol-version']);
    if (version !== undefined && !LEGACY_VERSIONS.has(version)) return undefined;
    const accept = headerOf(headers.accept);
    if (
      accept === undefined ||
      !accept.includes('application/json') ||
      !accept.includes('text/event-stream')
    ) {
      return undefined;
    }
    if (params !== undefined && !isPlainObject(params)) return undefined;
    if (meta !== undefined && !(isPlainObject(meta) && onlyKeys(meta, LEGACY_META_KEYS))) return undefined;
    const method = body.method as string;
    if (!('id' in body)) {
      if (method !== 'notifications/initialized' || !onlyKeys(body, NOTIFICATION_KEYS)) return undefined;
      return params === undefined || onlyKeys(params as Record<string, unknown>, META_ONLY)
        ? { kind: 'accepted' }
        : undefined;
    }
    const id = body.id;
    if (!isRequestId(id) || !onlyKeys(body, ENVELOPE_KEYS)) return undefined;
    const p = (params ?? {}) as Record<string, unknown>;
    switch (method) {
      case 'tools/call': {
        if (params === undefined || !onlyKeys(p, CALL_PARAMS)) return undefined;
        const name = p.name;
        const args = p.arguments;
        if (typeof name !== 'string' || !this.#callable(name, args)) return undefined;
        return { kind: 'call', era: 'legacy', id, name, args: args as Record<string, unknown> | undefined };
      }
      case 'resources/read': {
        if (params === undefined || !onlyKeys(p, READ_PARAMS) || typeof p.uri !== 'string') return undefined;
        return { kind: 'read', era: 'legacy', id, uri: p.uri };
      }
      case 'tools/list': {
        if (!onlyKeys(p, LIST_PARAMS) || !optionalString(p.cursor)) return undefined;
        return this.#toolsList('legacy', id);
      }
      default:
        return undefined;
    }
  }

  /**
   * Arguments the SDK would pass through unchanged (absent, or a plain object
   * without an own `__proto__`, which its record schema would drop) for a
   * tool whose result the lean path can shape (unknown tools answer the
   * same error on both paths).
   */
  #callable(name: string, args: unknown): boolean {
    if (args !== undefined && (!isPlainObject(args) || Object.hasOwn(args, '__proto__'))) return false;
    return this.#catalog.tool(name) === undefined || this.#leanTools.has(name);
  }

  /** Mcp-Name must be present, decodable, and equal to the body's name or uri (the SDK's header rung). */
  #nameHeaderMatches(headers: IncomingHttpHeaders, expected: string): boolean {
    const raw = headerOf(headers['mcp-name']);
    return raw !== undefined && decodeHeaderValue(stripOws(raw)) === expected;
  }

  /**
   * Whether the SDK accepts this `_meta` as a 2026-07-28 envelope. The SDK's
   * own classifier decides, once per distinct envelope (clients send the
   * same one on every request), on a synthetic request that differs from the
   * real one only in what the envelope check does not read.
   */
  #envelopeValid(meta: Record<string, unknown>): boolean {
    const key = JSON.stringify(meta);
    const known = this.#envelopeMemo.get(key);
    if (known !== undefined) return known;
    const outcome = classifyInboundRequest({
      httpMethod: 'POST',
      body: { jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: meta } },
    });
    const valid = outcome.kind === 'modern';
    if (this.#envelopeMemo.size >= ENVELOPE_MEMO_LIMIT) this.#envelopeMemo.clear();
    this.#envelopeMemo.set(key, valid);
    return valid;
  }

  /** Answers a planned request on `res`. Never throws; resolves when the answer is written or abandoned. */
  async serve(plan: LeanPlan, res: ServerResponse, exchange: LeanExchange): Promise<void> {
    switch (plan.kind) {
      case 'accepted':
        res.writeHead(202);
        res.end();
        return;
      case 'static': {
        let answer = plan.answer;
        if (plan.readOnly !== undefined) {
          const listed = await this.#writesListed(exchange);
          if (listed === undefined) return;
          if (!listed) answer = plan.readOnly;
        }
        if (exchange.signal.aborted || res.writableEnded) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.before + JSON.stringify(plan.id) + answer.after);
        return;
      }
      case 'call':
      case 'read':
        return this.#dispatch(plan, res, exchange);
    }
  }

  /** Whether the caller's list has the write tools; undefined when asking failed (answered as a 500). */
  async #writesListed(exchange: LeanExchange): Promise<boolean | undefined> {
    try {
      const binding = exchange.binding();
      return binding.writesListed === undefined ? true : await binding.writesListed();
    } catch (error) {
      this.#options.log('error', `http lean path: tools/list failed: ${(error as Error)?.message}`);
      exchange.fail();
      return undefined;
    }
  }

  async #dispatch(
    plan: Extract<LeanPlan, { kind: 'call' | 'read' }>,
    res: ServerResponse,
    exchange: LeanExchange,
  ): Promise<void> {
    const keepAlive = plan.era === 'legacy' ? this.#armLegacyKeepAlive(res, exchange) : undefined;
    let json: string;
    let status = 200;
    try {
      json = plan.kind === 'call' ? await this.#call(plan, exchange) : await this.#read(plan, exchange);
    } catch (error) {
      const { code, message, data } = describeThrown(error);
      exchange.failed(String(code));
      json = dispatchErrorBody(plan.id, code, message, data);
      // Handler errors are in-band (HTTP 200) except a missing client capability (the SDK's one exception).
      if (code === JsonRpcCode.MissingClientCapability) status = 400;
    } finally {
      if (keepAlive !== undefined) clearInterval(keepAlive);
    }
    // The SDK drops the answer of an aborted request; the client is gone anyway.
    if (exchange.signal.aborted || res.writableEnded) return;
    if (plan.era === 'modern') {
      res.writeHead(status, JSON_HEADERS);
      res.end(json);
      return;
    }
    if (!res.headersSent) res.writeHead(200, SSE_HEADERS);
    res.end(sseFrame(json));
  }

  async #call(plan: Extract<LeanPlan, { kind: 'call' }>, exchange: LeanExchange): Promise<string> {
    const result = await callTool(
      this.#catalog,
      exchange.binding(),
      { name: plan.name, arguments: plan.args },
      { signal: exchange.signal, progress: noProgress, onInternalError: this.#options.onInternalError },
    );
    // The SDK's result schema orders these keys; callTool produces no others.
    let inner = `{"content":${JSON.stringify(result.content)}`;
    if (result.structuredContent !== undefined)
      inner += `,"structuredContent":${JSON.stringify(result.structuredContent)}`;
    if (result.isError !== undefined) inner += `,"isError":${JSON.stringify(result.isError)}`;
    if (plan.era === 'modern') inner += `,"resultType":"complete"${this.#modernMeta}`;
    return `{"result":${inner}},"jsonrpc":"2.0","id":${JSON.stringify(plan.id)}}`;
  }

  async #read(plan: Extract<LeanPlan, { kind: 'read' }>, exchange: LeanExchange): Promise<string> {
    const result = await readResource(this.#catalog, exchange.binding(), plan.uri);
    let inner = `{"contents":${JSON.stringify(result.contents)}`;
    if (plan.era === 'modern') {
      // server-factory.ts gives resources/read the corpus cache hint.
      inner += `,"resultType":"complete","ttlMs":${CORPUS_CACHE_HINT.ttlMs},"cacheScope":${JSON.stringify(CORPUS_CACHE_HINT.cacheScope)}${this.#modernMeta}`;
    }
    return `{"result":${inner}},"jsonrpc":"2.0","id":${JSON.stringify(plan.id)}}`;
  }

  /** The SDK's legacy transport opens its SSE stream at once and sends keep-alive comments; slow answers get the same. */
  #armLegacyKeepAlive(res: ServerResponse, exchange: LeanExchange): NodeJS.Timeout | undefined {
    const interval = this.#options.keepAliveMs;
    if (!(interval > 0)) return undefined;
    const timer = setInterval(() => {
      if (res.writableEnded) return;
      if (!res.headersSent) {
        res.writeHead(200, SSE_HEADERS);
        exchange.streaming();
      }
      res.write(': keepalive\n\n');
    }, interval);
    timer.unref();
    return timer;
  }
}

/** Whether client capabilities declare the tasks extension (such calls stay on the SDK path). */
function declaresTasks(capabilities: unknown): boolean {
  if (!isPlainObject(capabilities)) return false;
  const extensions = capabilities.extensions;
  return isPlainObject(extensions) && TASKS_EXTENSION_ID in extensions;
}

function isRequestId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** The JSON-RPC error the SDK's protocol layer makes of a thrown handler error. */
function describeThrown(error: unknown): { code: number; message: string; data: unknown } {
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const thrown = record.code;
  let code = typeof thrown === 'number' && Number.isSafeInteger(thrown) ? thrown : JsonRpcCode.InternalError;
  // The SDK never sends -32002 (resource not found); it goes out as -32602.
  if (code === -32002) code = JsonRpcCode.InvalidParams;
  const message = typeof record.message === 'string' ? record.message : 'Internal error';
  return { code, message, data: record.data };
}
