/**
 * One admitted POST exchange: its abort signal, how it ended (for the
 * observer), the response the SDK handler writes through, and the answers
 * moor writes itself when the client cancels it or shutdown cuts it off.
 */
import type { ServerResponse } from 'node:http';
import type { NodeServerResponseLike } from '@modelcontextprotocol/node';
import { JsonRpcCode, MoorError } from '../errors.js';
import { INTERRUPTED } from '../host/admission.js';
import type { CallerScope } from '../host/call-scope.js';
import { isToolErrorResponse, type Outcome, TOOL_ERROR_TYPE } from '../observe/labels.js';
import type { TraceSpan } from '../observe/tracer.js';
import type { AdmittedRequest } from './intake.js';
import type { LeanExchange } from './lean/lean-path.js';
import { dispatchErrorBody, entryErrorBody, JSON_HEADERS, SSE_HEADERS, sendJson, sseFrame } from './wire.js';

/** A written answer (a JSON body, or SSE frames) whose JSON-RPC response is a tool's isError result. */
function isToolErrorText(text: string): boolean {
  const bodies = text.trimStart().startsWith('{')
    ? [text]
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6));
  return bodies.some((body) => {
    try {
      return isToolErrorResponse(JSON.parse(body));
    } catch {
      return false;
    }
  });
}

const SHUTTING_DOWN_MESSAGE =
  'moor is shutting down: the daemon stopped before this request finished; it may or may not have completed. Retry once the daemon is back.';

/** One admitted POST: what cancellation and shutdown need to answer or abort it. */
export class Exchange implements LeanExchange {
  readonly res: ServerResponse;
  readonly request: AdmittedRequest;
  readonly started = performance.now();
  /** The observer's label slot (-1: not observed) and span. */
  slot = -1;
  span: TraceSpan | undefined;
  /** How the exchange ended, as far as known: the first verdict other than ok sticks. */
  outcome: Outcome = 'ok';
  errorType: string | undefined;
  #controller: AbortController | undefined;
  #abortedBy: { readonly reason: unknown } | undefined;
  #hijacked = false;
  /** The answer is an SSE stream whose head is already written (Node keeps no readable copy of writeHead's headers). */
  #sse = false;

  constructor(res: ServerResponse, request: AdmittedRequest) {
    this.res = res;
    this.request = request;
  }

  /**
   * Made on first use: most calls (a remembered get_decision, say) never look
   * at it, and an AbortController per request was a measurable share of one.
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#abortedBy !== undefined) this.#controller.abort(this.#abortedBy.reason);
    }
    return this.#controller.signal;
  }

  /** Whether the exchange was aborted (cancelled or cut off), without making its signal. */
  get aborted(): boolean {
    return this.#abortedBy !== undefined;
  }

  /** The caller scope of this request (what its headers name, resolved once). */
  scope(): CallerScope {
    return this.request.scope.resolve();
  }

  streaming(): void {
    this.#sse = true;
  }

  fail(): void {
    if (!this.res.headersSent)
      sendJson(
        this.res,
        500,
        entryErrorBody(JsonRpcCode.InternalError, 'Internal server error', this.request.id),
      );
    else this.res.destroy();
  }

  failed(errorType?: string): void {
    this.settle('error', errorType);
  }

  settle(outcome: Outcome, errorType?: string): void {
    if (this.outcome !== 'ok') return;
    this.outcome = outcome;
    this.errorType = errorType;
  }

  /** What an SDK answer's bytes say: an HTTP error status, or a JSON-RPC error response. */
  #classify(chunk: unknown): void {
    if (this.slot < 0 || this.outcome !== 'ok') return;
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : '';
    // The SDK writes an error response as {"jsonrpc":"2.0","id":…,"error":{…}} and a result
    // as {"result":…}; inside a JSON string the quotes would be escaped, so this cannot match content.
    const at = text.indexOf(',"error":{"code":');
    if (at >= 0 && text.lastIndexOf('{"jsonrpc":"2.0","id":', at) >= 0) {
      const code = /^-?\d+/.exec(text.slice(at + 17))?.[0];
      this.settle('error', code);
      return;
    }
    // A tool's isError result: the text is parsed only when it may hold one (a failed call).
    if (this.request.method === 'tools/call' && text.includes(',"isError":true') && isToolErrorText(text))
      this.settle('error', TOOL_ERROR_TYPE);
  }

  abort(reason?: unknown): void {
    this.#abortedBy ??= { reason };
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
        if (status >= 400) this.settle('error', String(status));
        res.writeHead(status, headers);
        return sink;
      },
      write: (chunk) => {
        if (this.#hijacked) return true;
        this.#classify(chunk);
        return res.write(chunk);
      },
      end: (chunk) => {
        if (!this.#hijacked) {
          this.#classify(chunk);
          res.end(chunk);
        }
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
    this.settle('cancelled');
    const res = this.res;
    if (!res.writableEnded) {
      this.#hijacked = true;
      if (!res.headersSent) res.writeHead(200, SSE_HEADERS);
      res.end();
    }
    this.abort(new MoorError('CANCELLED', 'cancelled by the client'));
  }

  /** Shutdown after the grace period: answer with a clear JSON-RPC error (in-band, HTTP 200), then abort the work. */
  terminate(): void {
    this.settle('error', 'interrupted');
    const res = this.res;
    const id = this.request.id;
    if (!res.writableEnded) {
      this.#hijacked = true;
      const body = dispatchErrorBody(id, JsonRpcCode.Unavailable, SHUTTING_DOWN_MESSAGE, INTERRUPTED);
      if (!res.headersSent) {
        res.writeHead(200, { ...JSON_HEADERS, connection: 'close' });
        res.end(body);
      } else if (this.#sse && id !== null) {
        res.end(sseFrame(body));
      } else res.destroy();
    }
    this.abort(new MoorError('SHUTTING_DOWN', SHUTTING_DOWN_MESSAGE));
  }
}
