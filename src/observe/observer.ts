/**
 * What the transports call for every request they serve: the request
 * counters (and the listen-stream gauge) when metrics are on, a server span
 * when tracing is on. A request is observed as a small integer slot
 * (transport × era × method) plus, only while tracing, a span: with tracing
 * off, observing a request allocates nothing.
 */
import type { Refusal } from '../host/admission.js';
import type { DeferredMetrics } from './deferred-metrics.js';
import { eraOf, methodIndex, type Outcome, type Transport } from './labels.js';
import { requestSlot, slotMethod } from './metrics.js';
import type { RequestTracer, TraceSpan } from './tracer.js';

const NETWORK: Readonly<Record<Transport, 'unix' | 'tcp'>> = { socket: 'unix', http: 'tcp' };

export class RequestObserver {
  readonly metrics: DeferredMetrics | undefined;
  readonly tracer: RequestTracer | undefined;

  constructor(metrics: DeferredMetrics | undefined, tracer: RequestTracer | undefined) {
    this.metrics = metrics;
    this.tracer = tracer;
  }

  /** Starts observing a request; pass the slot (and span) to end() exactly once. */
  begin(transport: Transport, message: unknown): number {
    const method = methodIndex((message as { method?: unknown } | undefined)?.method);
    this.metrics?.listenStream(1, method);
    return requestSlot(transport, eraOf(message), method);
  }

  /** The request's server span, or undefined when tracing is off. */
  span(transport: Transport, message: unknown, sessionKey: string | undefined): TraceSpan | undefined {
    return this.tracer?.start({ network: NETWORK[transport], message, sessionKey });
  }

  end(slot: number, outcome: Outcome, span: TraceSpan | undefined, errorType?: string): void {
    const metrics = this.metrics;
    if (metrics !== undefined) {
      metrics.countRequest(slot, outcome);
      metrics.listenStream(-1, slotMethod(slot));
    }
    span?.end(outcome, errorType);
  }

  /** A request the admission gate refused: counted, and traced as refused. */
  refused(transport: Transport, message: unknown, reason: Refusal, sessionKey?: string): void {
    const method = methodIndex((message as { method?: unknown } | undefined)?.method);
    this.metrics?.countRequest(requestSlot(transport, eraOf(message), method), 'refused');
    this.metrics?.admissionRefused(transport, reason);
    this.span(transport, message, sessionKey)?.end('refused', reason === 'busy' ? 'busy' : 'shutting_down');
  }

  /** tools/call outcomes, from the host's callTool. */
  readonly toolCall = (tool: string, outcome: Outcome, seconds: number): void => {
    this.metrics?.toolCall(tool, outcome, seconds);
  };
}
