/**
 * The OpenTelemetry tracer: one SERVER span per MCP request, named and
 * attributed after the OpenTelemetry MCP semantic conventions, parented on
 * the W3C trace context the request carries in `_meta` (so a client's trace
 * continues through the proxy, which forwards `_meta` untouched, into the
 * daemon). Spans leave through a BatchSpanProcessor and the OTLP/HTTP
 * exporter, which reads its endpoint, headers and protocol from the
 * standard OTEL_EXPORTER_OTLP_* variables. Imported only when tracing is on.
 */
import { createHash } from 'node:crypto';
import {
  type Context,
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { traceContextOf } from '../protocol/trace.js';
import { metaOf, methodIndex, methodLabel, protocolVersionOf, toolNameOf } from './labels.js';
import type { RequestTracer, SpanRequest, TraceSpan } from './tracer.js';

/** The session id on a span is a hash prefix: the key itself authorises (it scopes tasks). */
const SESSION_HASH_CHARS = 16;
const SESSION_HASH_MEMO_LIMIT = 1024;

export function createOtelTracer(version: string): RequestTracer {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'moor', [ATTR_SERVICE_VERSION]: version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  const tracer = provider.getTracer('moor', version);
  const sessionHashes = new Map<string, string>();
  const sessionId = (key: string): string => {
    let hash = sessionHashes.get(key);
    if (hash === undefined) {
      hash = createHash('sha256').update(key).digest('hex').slice(0, SESSION_HASH_CHARS);
      if (sessionHashes.size >= SESSION_HASH_MEMO_LIMIT) sessionHashes.clear();
      sessionHashes.set(key, hash);
    }
    return hash;
  };

  return {
    start(request: SpanRequest): TraceSpan {
      const message = request.message as { method?: unknown; id?: unknown };
      // A method outside the allow-list is named "other": span names stay a bounded set too.
      const method = methodLabel(methodIndex(message?.method));
      const tool = method === 'tools/call' ? toolNameOf(message) : undefined;
      const version = protocolVersionOf(message);
      const attributes: Record<string, string | number> = {
        'mcp.method.name': method,
        'network.transport': request.network,
        'moor.era': version === undefined ? 'legacy' : 'modern',
      };
      if (tool !== undefined) {
        attributes['gen_ai.tool.name'] = tool;
        attributes['gen_ai.operation.name'] = 'execute_tool';
      }
      if (version !== undefined) attributes['mcp.protocol.version'] = version;
      if (request.sessionKey !== undefined) attributes['mcp.session.id'] = sessionId(request.sessionKey);
      if (typeof message?.id === 'string' || typeof message?.id === 'number')
        attributes['jsonrpc.request.id'] = String(message.id);
      const span = tracer.startSpan(
        tool === undefined ? method : `${method} ${tool}`,
        { kind: SpanKind.SERVER, attributes },
        parentOf(metaOf(message)),
      );
      return {
        end(outcome, errorType) {
          span.setAttribute('moor.outcome', outcome);
          if (outcome === 'error' || outcome === 'refused') {
            span.setAttribute('error.type', errorType ?? outcome);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
    async shutdown(): Promise<void> {
      await provider.shutdown();
    },
  };
}

/** The remote parent a request's `_meta` names, else the root (a new trace). */
function parentOf(meta: Record<string, unknown> | undefined): Context {
  const parent = traceContextOf(meta);
  if (parent === undefined) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parent.traceId,
    spanId: parent.parentId,
    traceFlags: Number.parseInt(parent.flags, 16) & 1,
    isRemote: true,
    ...(parent.tracestate !== undefined ? { traceState: createTraceState(parent.tracestate) } : {}),
  });
}
