/**
 * Which requests the lean path takes, and what it will do with each. The
 * rule: the lean path takes a request only when it fully understands it and
 * knows the SDK would dispatch it to moor's handler (every validation rung
 * passes). Anything else — errors in headers or envelope, progress tokens
 * (they need SSE), MRTR material, batches, listen streams, unknown methods
 * or params, unusual `_meta` keys — goes to the SDK handler unchanged, so
 * every rejection keeps the SDK's own status and body. Durable tasks are the
 * SDK path's too: a tools/call whose envelope declares the
 * io.modelcontextprotocol/tasks extension, any call of a task-capable tool,
 * and every tasks/* request (the tasks extension is installed there).
 * Legacy `initialize` stays on the SDK path (once per client; its params
 * validation is the SDK's to keep).
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { Catalog } from '../../host/catalog.js';
import { MODERN_PROTOCOL_VERSION, TASKS_EXTENSION_ID } from '../../protocol/constants.js';
import { decodeHeaderValue, headerOf, isPlainObject, type JsonRpcId, onlyKeys, stripOws } from '../wire.js';
import type { PrimedAnswers } from './primed-answers.js';
import type { StaticAnswer } from './static-answers.js';

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

export class LeanPlanner {
  readonly #catalog: Catalog;
  readonly #primed: PrimedAnswers;
  /** Tools whose results the lean path may shape (object-shaped structuredContent). */
  readonly #leanTools: ReadonlySet<string>;
  /** Envelope validity by the `_meta` object's JSON, decided once by the SDK's own classifier. */
  readonly #envelopeMemo = new Map<string, boolean>();

  /**
   * Until the answers are primed, only what needs no primed answer is lean
   * (legacy tools/call and resources/read); everything else goes to the SDK
   * handler, which is always correct.
   */
  constructor(catalog: Catalog, primed: PrimedAnswers) {
    this.#catalog = catalog;
    this.#primed = primed;
    this.#leanTools = new Set(
      catalog.tools
        .filter((tool) => tool.outputSchema === undefined || tool.outputSchema.type === 'object')
        // Task-capable tools (and their input rounds) are the tasks extension's, on the SDK path.
        .filter((tool) => catalog.tool(tool.name)?.definition.task === undefined)
        .map((tool) => tool.name),
    );
  }

  /** The static plan for tools/list: both variants when they differ, none when one is missing. */
  #toolsList(era: Era, id: JsonRpcId): LeanPlan | undefined {
    const key = `${era} tools/list`;
    const answer = this.#primed.get(key);
    if (answer === undefined) return undefined;
    if (this.#catalog.writeToolNames.length === 0) return { kind: 'static', era, id, answer };
    const readOnly = this.#primed.get(`${key} read-only`);
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
        if (this.#primed.modernMeta === undefined || !onlyKeys(params, CALL_PARAMS)) return undefined;
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
        if (this.#primed.modernMeta === undefined || !onlyKeys(params, READ_PARAMS)) return undefined;
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
        const answer = this.#primed.get('modern server/discover');
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
