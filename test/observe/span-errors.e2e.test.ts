/**
 * Traces agree with metrics: a tools/call that answers an `isError` result,
 * or a JSON-RPC error, ends its server span with an error status and an
 * `error.type` (`tool_error`, or the JSON-RPC code), on the lean HTTP path,
 * the SDK HTTP path (a progress token sends the call there) and the socket
 * (through `moor stdio`); the tool-call counter says error for the same calls.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { killAll, removeStateDirs, tempState } from '../tasks/daemon-helpers.js';
import {
  attribute,
  callTool,
  type OtlpSpan,
  otlpReceiver,
  sample,
  scrape,
  startTestDaemon,
  stopTestDaemon,
} from './helpers.js';

const run = promisify(execFile);
const ERROR_STATUS = 2;

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

const TRACE_ENV = (endpoint: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '50',
});

function spanOf(spans: readonly OtlpSpan[], requestId: string): OtlpSpan {
  const span = spans.find((s) => attribute(s, 'jsonrpc.request.id') === requestId);
  if (span === undefined) throw new Error(`no span for request ${requestId}`);
  return span;
}

function verdict(span: OtlpSpan): { status: number | undefined; errorType: unknown; outcome: unknown } {
  return {
    status: span.status?.code,
    errorType: attribute(span, 'error.type'),
    outcome: attribute(span, 'moor.outcome'),
  };
}

describe('failed calls trace as errors', () => {
  it('over HTTP, lean and SDK paths: isError → tool_error, a JSON-RPC error → its code', async () => {
    const receiver = await otlpReceiver();
    const daemon = await startTestDaemon(['-w', E2E_WORKSPACE], TRACE_ENV(receiver.url));
    const ids: Record<string, string> = {};
    const idOf = (body: Record<string, unknown>) => String(body.id);
    try {
      const lean = await callTool(daemon.base, 'get_decision', { ref: '9999' });
      expect((lean.body.result as { isError?: boolean }).isError).toBe(true);
      ids.lean = idOf(lean.body);
      const sdk = await callTool(
        daemon.base,
        'get_decision',
        { ref: '9999' },
        { meta: { progressToken: 'p1' } },
      );
      expect((sdk.body.result as { isError?: boolean }).isError).toBe(true);
      ids.sdk = idOf(sdk.body);
      const unknown = await callTool(daemon.base, 'no_such_tool', {});
      expect((unknown.body.error as { code: number }).code).toBe(-32602);
      ids.unknown = idOf(unknown.body);
      const ok = await callTool(daemon.base, 'search_decisions', { query: 'storage' });
      expect((ok.body.result as { isError?: boolean }).isError).toBeUndefined();
      ids.ok = idOf(ok.body);
      const metrics = await scrape(daemon.base);
      expect(sample(metrics, 'moor_tool_calls_total', { tool: 'get_decision', outcome: 'error' })).toBe(2);
    } finally {
      await stopTestDaemon(daemon);
    }
    await receiver.close();
    const toolError = { status: ERROR_STATUS, errorType: 'tool_error', outcome: 'error' };
    expect(verdict(spanOf(receiver.spans, ids.lean as string))).toEqual(toolError);
    expect(verdict(spanOf(receiver.spans, ids.sdk as string))).toEqual(toolError);
    expect(verdict(spanOf(receiver.spans, ids.unknown as string))).toEqual({
      status: ERROR_STATUS,
      errorType: '-32602',
      outcome: 'error',
    });
    const ok = verdict(spanOf(receiver.spans, ids.ok as string));
    expect(ok.errorType).toBeUndefined();
    expect(ok.outcome).toBe('ok');
    expect(ok.status).not.toBe(ERROR_STATUS);
  });

  it('over the socket (moor stdio): isError → tool_error', async () => {
    const receiver = await otlpReceiver();
    const stateDir = tempState('moor-observe-');
    const env = { ...process.env, MOOR_STATE_DIR: stateDir, ...TRACE_ENV(receiver.url) };
    const client = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--workspace', E2E_WORKSPACE], env);
    try {
      const failed = await client.modern('tools/call', { name: 'get_decision', arguments: { ref: '9999' } });
      expect((failed.result as { isError?: boolean }).isError).toBe(true);
      const unknown = await client.modern('tools/call', { name: 'no_such_tool', arguments: {} });
      expect(unknown.error?.code).toBe(-32602);
    } finally {
      await client.close();
      await run(process.execPath, [MOOR_BIN, 'daemon', 'stop'], { env });
    }
    await receiver.close();
    const socketSpans = receiver.spans.filter((s) => attribute(s, 'network.transport') === 'unix');
    const failedSpan = socketSpans.find((s) => attribute(s, 'gen_ai.tool.name') === 'get_decision');
    expect(verdict(failedSpan as OtlpSpan)).toEqual({
      status: ERROR_STATUS,
      errorType: 'tool_error',
      outcome: 'error',
    });
    const unknownSpan = socketSpans.find(
      (s) => attribute(s, 'mcp.method.name') === 'tools/call' && attribute(s, 'error.type') === '-32602',
    );
    expect(unknownSpan?.status?.code).toBe(ERROR_STATUS);
  });
});
