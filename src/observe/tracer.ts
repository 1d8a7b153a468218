/**
 * The tracer seam the transports call: a span per request, ended once with
 * its outcome. Its own file so that the OpenTelemetry implementation
 * (otel-tracer.ts) and the switch that loads it (tracing.ts) both depend on
 * it rather than on each other.
 */
import type { Outcome } from './labels.js';

/** The span a request gets: ended once with its outcome. */
export interface TraceSpan {
  end(outcome: Outcome, errorType?: string): void;
}

/** What a server span is made from. */
export interface SpanRequest {
  /** network.transport: the socket is a unix socket, HTTP is tcp. */
  readonly network: 'unix' | 'tcp' | 'pipe';
  /** The JSON-RPC message (method, params.name, params._meta are read). */
  readonly message: unknown;
  readonly sessionKey: string | undefined;
}

export interface RequestTracer {
  start(request: SpanRequest): TraceSpan;
  /** Exports what is buffered, then stops. */
  shutdown(): Promise<void>;
}
