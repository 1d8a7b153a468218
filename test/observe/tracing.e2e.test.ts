/**
 * OpenTelemetry traces against the built daemon and a local OTLP/HTTP
 * receiver (JSON): the server span of a tools/call parents on the
 * traceparent sent in `_meta`, over HTTP and through `moor stdio` (the
 * proxy forwards `_meta` untouched). With no OTEL_* variables the daemon
 * loads no OpenTelemetry module at all (an import hook records every
 * module the daemon resolves).
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { killAll, removeStateDirs, tempState } from '../tasks/daemon-helpers.js';
import {
  attribute,
  authOf,
  callTool,
  type OtlpSpan,
  otlpReceiver,
  startTestDaemon,
  stopTestDaemon,
} from './helpers.js';

const run = promisify(execFile);
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

/** An --import hook that appends every module URL the process resolves to a file. */
function importRecorder(dir: string): { options: string; modules: () => string[] } {
  const log = path.join(dir, 'imports.log');
  writeFileSync(log, '');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}
`,
  );
  const register = path.join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return {
    options: `--import=${pathToFileURL(register).href}`,
    modules: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

const TRACE_ENV = (endpoint: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '50',
});

describe('OpenTelemetry traces', () => {
  it('a server span per HTTP request, parented on the traceparent in _meta', async () => {
    const receiver = await otlpReceiver();
    const stateDir = tempState('moor-observe-');
    const recorder = importRecorder(stateDir);
    const daemon = await startTestDaemon(
      ['-w', E2E_WORKSPACE],
      { ...TRACE_ENV(receiver.url), NODE_OPTIONS: recorder.options },
      stateDir,
    );
    try {
      const answer = await callTool(
        daemon.base,
        'search_decisions',
        { query: 'storage' },
        {
          meta: { traceparent: TRACEPARENT },
          headers: { 'moor-session': 'observe-session-key-1' },
        },
      );
      expect(answer.status).toBe(200);
    } finally {
      await stopTestDaemon(daemon); // shutdown exports what the batch processor holds
    }
    await receiver.close();
    const span = receiver.spans.find((s) => attribute(s, 'mcp.method.name') === 'tools/call');
    expect(span?.traceId).toBe(TRACE_ID);
    expect(span?.parentSpanId).toBe(PARENT_ID);
    expect(span?.name).toBe('tools/call search_decisions');
    expect(span?.kind).toBe(2); // SERVER
    expect(attribute(span as OtlpSpan, 'gen_ai.tool.name')).toBe('search_decisions');
    expect(attribute(span as OtlpSpan, 'network.transport')).toBe('tcp');
    expect(attribute(span as OtlpSpan, 'mcp.protocol.version')).toBe('2026-07-28');
    const session = attribute(span as OtlpSpan, 'mcp.session.id');
    expect(session).toMatch(/^[0-9a-f]{16}$/);
    expect(session).not.toContain('observe-session');
    expect(recorder.modules().some((url) => url.includes('@opentelemetry'))).toBe(true);
  });

  it('through moor stdio the daemon span continues the client trace', async () => {
    const receiver = await otlpReceiver();
    const stateDir = tempState('moor-observe-');
    const env = { ...process.env, MOOR_STATE_DIR: stateDir, ...TRACE_ENV(receiver.url) };
    const client = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--workspace', E2E_WORKSPACE], env);
    try {
      const answer = await client.modern('tools/call', {
        name: 'get_decision',
        arguments: { ref: '1' },
        _meta: { traceparent: TRACEPARENT },
      });
      expect(answer.error).toBeUndefined();
    } finally {
      await client.close();
      await run(process.execPath, [MOOR_BIN, 'daemon', 'stop'], { env });
    }
    await receiver.close();
    const span = receiver.spans.find((s) => attribute(s, 'gen_ai.tool.name') === 'get_decision');
    expect(span?.traceId).toBe(TRACE_ID);
    expect(span?.parentSpanId).toBe(PARENT_ID);
    expect(attribute(span as OtlpSpan, 'network.transport')).toBe('unix');
    expect(attribute(span as OtlpSpan, 'moor.outcome')).toBe('ok');
  });

  it('off without the OTEL_* environment: no OpenTelemetry module is loaded', async () => {
    const stateDir = tempState('moor-observe-');
    const recorder = importRecorder(stateDir);
    const clean = Object.fromEntries(
      Object.keys(process.env)
        .filter((k) => k.startsWith('OTEL_'))
        .map((k) => [k, undefined]),
    );
    const daemon = await startTestDaemon(
      ['-w', E2E_WORKSPACE],
      { ...clean, NODE_OPTIONS: recorder.options },
      stateDir,
    );
    try {
      const answer = await callTool(
        daemon.base,
        'search_decisions',
        { query: 'storage' },
        {
          meta: { traceparent: TRACEPARENT },
        },
      );
      expect(answer.status).toBe(200);
      const status = await (await fetch(`${daemon.base}/metrics`, { headers: authOf(daemon.base) })).text();
      expect(status).toContain('moor_requests_total');
    } finally {
      await stopTestDaemon(daemon);
    }
    const modules = recorder.modules();
    expect(modules.some((url) => url.includes('/dist/'))).toBe(true);
    expect(modules.filter((url) => url.includes('opentelemetry') || url.includes('otel-tracer'))).toEqual([]);
  });
});
