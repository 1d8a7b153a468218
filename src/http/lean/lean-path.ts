/**
 * The lean path: moor's own answer to the hot methods over HTTP, without a
 * per-request SDK Server, transport or web-stream. The SDK's stateless
 * handler costs ~400-700 µs of CPU per request on a 2-core machine (bench/http.mjs),
 * almost all of it in the per-request Web-standard machinery; this path
 * answers the same requests from the Catalog and callTool/readResource and
 * writes the exact bytes the SDK would have written. Which requests it takes
 * is lean-planner.ts's; the static answers it replays are primed from the SDK
 * handler (primed-answers.ts); this module answers.
 *
 * Result shaping follows the SDK's encode steps:
 * - modern (2026-07-28): the tools/call result as the SDK's result schema
 *   orders it (content, structuredContent, isError), then `resultType`, the
 *   cache fields for cacheable methods, then `_meta` with
 *   `io.modelcontextprotocol/serverInfo`; the response object is
 *   `{result, jsonrpc, id}`, errors `{jsonrpc, id, error}`; JSON on HTTP 200.
 * - legacy (2025, stateless): the same result without stamps, framed as the
 *   single SSE event the SDK's legacy transport writes.
 *
 * test/http/lean-parity.test.ts sends a corpus of requests through this
 * path and through the SDK path and asserts status, content type and body
 * bytes identical.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { CallToolResult, McpHttpHandler } from '@modelcontextprotocol/server';
import { JsonRpcCode, MoorError } from '../../errors.js';
import type { CallerScope } from '../../host/call-scope.js';
import type { Catalog } from '../../host/catalog.js';
import { readResource } from '../../host/resources.js';
import { ResultMemo } from '../../host/result-memo.js';
import { callTool } from '../../host/tool-call.js';
import { TOOL_ERROR_TYPE } from '../../observe/labels.js';
import { CORPUS_CACHE_HINT } from '../../protocol/constants.js';
import { dispatchErrorBody, type HttpLog, JSON_HEADERS, SSE_HEADERS, sseFrame } from '../wire.js';
import { type LeanPlan, LeanPlanner } from './lean-planner.js';
import { PrimedAnswers } from './primed-answers.js';

export type { Era, LeanPlan } from './lean-planner.js';

/** What one lean exchange needs from the endpoint. */
export interface LeanExchange {
  readonly signal: AbortSignal;
  /** Whether it was aborted; asking this never makes the signal. */
  readonly aborted: boolean;
  scope(): CallerScope;
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

const noProgress = async (): Promise<void> => {};

export class LeanPath {
  readonly #catalog: Catalog;
  readonly #options: LeanOptions;
  readonly #primed: PrimedAnswers;
  readonly #planner: LeanPlanner;
  readonly #memo = new ResultMemo();
  readonly #serialized = new WeakMap<CallToolResult, string>();

  constructor(options: LeanOptions) {
    this.#options = options;
    this.#catalog = options.catalog;
    this.#primed = new PrimedAnswers(options.catalog);
    this.#planner = new LeanPlanner(options.catalog, this.#primed);
  }

  /** Takes the static answers from the SDK handler, once (in the background at start). */
  prime(shouldLog: () => boolean = () => true): Promise<void> {
    return this.#primed.prime(this.#options.sdk, this.#options.log, shouldLog);
  }

  /**
   * The plan for a request the lean path fully understands, else undefined
   * (the request goes to the SDK handler). Pure: reads, never writes.
   */
  plan(headers: IncomingHttpHeaders, body: unknown): LeanPlan | undefined {
    return this.#planner.plan(headers, body);
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
        if (exchange.aborted || res.writableEnded) return;
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
      return await exchange.scope().writesListed();
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
    if (exchange.aborted || res.writableEnded) return;
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
      exchange.scope(),
      { name: plan.name, arguments: plan.args },
      {
        // The signal is made only if the tool looks at it.
        get signal() {
          return exchange.signal;
        },
        aborted: () => exchange.aborted,
        progress: noProgress,
        onInternalError: this.#options.onInternalError,
        // This path only serializes results, so it may be handed the memo's shared ones.
        memo: this.#memo,
      },
    );
    // A remembered result is the same object each time: its bytes are made once.
    const remembered = this.#memo.holds(result);
    let inner = remembered ? this.#serialized.get(result) : undefined;
    if (inner === undefined) {
      // The SDK's result schema orders these keys; callTool produces no others.
      inner = `{"content":${JSON.stringify(result.content)}`;
      if (result.structuredContent !== undefined)
        inner += `,"structuredContent":${JSON.stringify(result.structuredContent)}`;
      if (result.isError !== undefined) inner += `,"isError":${JSON.stringify(result.isError)}`;
      if (remembered) this.#serialized.set(result, inner);
    }
    if (result.isError === true) exchange.failed(TOOL_ERROR_TYPE);
    if (plan.era === 'modern') inner += `,"resultType":"complete"${this.#primed.modernMeta}`;
    return `{"result":${inner}},"jsonrpc":"2.0","id":${JSON.stringify(plan.id)}}`;
  }

  async #read(plan: Extract<LeanPlan, { kind: 'read' }>, exchange: LeanExchange): Promise<string> {
    const result = await readResource(this.#catalog, exchange.scope(), plan.uri);
    let inner = `{"contents":${JSON.stringify(result.contents)}`;
    if (plan.era === 'modern') {
      // server-factory.ts gives resources/read the corpus cache hint.
      inner += `,"resultType":"complete","ttlMs":${CORPUS_CACHE_HINT.ttlMs},"cacheScope":${JSON.stringify(CORPUS_CACHE_HINT.cacheScope)}${this.#primed.modernMeta}`;
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

/** The JSON-RPC error the SDK's protocol layer makes of a thrown handler error. */
function describeThrown(error: unknown): { code: number; message: string; data: unknown } {
  // As HostServer does on the SDK path: a registry error goes out with the code it declares.
  if (error instanceof MoorError) {
    const { code, message, data } = error.toJsonRpc();
    return { code, message, data };
  }
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const thrown = record.code;
  let code = typeof thrown === 'number' && Number.isSafeInteger(thrown) ? thrown : JsonRpcCode.InternalError;
  // The SDK never sends -32002 (resource not found); it goes out as -32602.
  if (code === -32002) code = JsonRpcCode.InvalidParams;
  const message = typeof record.message === 'string' ? record.message : 'Internal error';
  return { code, message, data: record.data };
}
