/**
 * Whether the daemon traces, decided by the standard OpenTelemetry
 * environment, and the seam the transports call. The OpenTelemetry SDK is
 * imported (dynamically) only when tracing is on: a daemon without the
 * variables loads none of it.
 *
 * On when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * is set, or OTEL_TRACES_EXPORTER names otlp; OTEL_SDK_DISABLED=true, or an
 * OTEL_TRACES_EXPORTER that does not name otlp (e.g. none), turns it off.
 */
import type { RequestTracer } from './tracer.js';

type Env = Readonly<Record<string, string | undefined>>;

export function tracingRequested(env: Env = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporters !== undefined && exporters.length > 0) {
    return exporters
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .includes('otlp');
  }
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The tracer when the environment asks for one, else undefined (and nothing of OpenTelemetry loaded). */
export async function startTracing(
  version: string,
  env: Env = process.env,
): Promise<RequestTracer | undefined> {
  if (!tracingRequested(env)) return undefined;
  const { createOtelTracer } = await import('./otel-tracer.js');
  return createOtelTracer(version);
}
