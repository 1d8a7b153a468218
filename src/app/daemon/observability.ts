/**
 * The daemon's observability, composed: Prometheus metrics (on unless
 * MOOR_METRICS=0), OpenTelemetry traces (only when the OTEL_* environment
 * asks), and the one RequestObserver the socket and HTTP transports call.
 * prom-client and the OpenTelemetry SDK are imported only when wanted, and
 * prom-client only once the daemon listens (`loadMetrics`): requests
 * observed before are counted when it is in.
 */
import { DeferredMetrics } from '../../observe/deferred-metrics.js';
import { createDaemonMetrics, type MetricsSources } from '../../observe/metrics.js';
import { RequestObserver } from '../../observe/observer.js';
import type { RequestTracer } from '../../observe/tracer.js';
import { startTracing } from '../../observe/tracing.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface DaemonObservability {
  /** Undefined when both metrics and tracing are off: the transports observe nothing. */
  readonly observer: RequestObserver | undefined;
  readonly metrics: DeferredMetrics | undefined;
  readonly tracer: RequestTracer | undefined;
  /** Loads prom-client and builds the metrics (once the daemon listens); rejects when that fails. */
  loadMetrics(): Promise<void>;
  /** Exports buffered spans (shutdown). */
  shutdown(): Promise<void>;
}

/** Metrics are on unless MOOR_METRICS is 0, off or false (a benchmark's "metrics off" arm). */
export function metricsRequested(env: Env = process.env): boolean {
  const value = env.MOOR_METRICS?.trim().toLowerCase();
  return !(value === '0' || value === 'off' || value === 'false');
}

export async function startObservability(options: {
  readonly toolNames: readonly string[];
  readonly sources: MetricsSources;
  readonly version: string;
  readonly env?: Env;
}): Promise<DaemonObservability> {
  const env = options.env ?? process.env;
  const metrics = metricsRequested(env) ? new DeferredMetrics() : undefined;
  const tracer = await startTracing(options.version, env);
  const observer =
    metrics === undefined && tracer === undefined ? undefined : new RequestObserver(metrics, tracer);
  return {
    observer,
    metrics,
    tracer,
    loadMetrics: async () => {
      await metrics?.load(() => createDaemonMetrics(options.toolNames, options.sources));
    },
    shutdown: async () => {
      await tracer?.shutdown();
    },
  };
}
