/**
 * Shared set-up for the observability e2e tests: a daemon of the built
 * binary on a temporary state dir and a free port, raw MCP posts, and the
 * /metrics text parsed with parse-prometheus-text-format.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
// parse-prometheus-text-format ships no types.
// @ts-expect-error untyped CommonJS module
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { MOOR_BIN } from '../helpers/paths.js';
import { freePort, tempState, track } from '../tasks/daemon-helpers.js';

export interface MetricFamily {
  readonly name: string;
  readonly type: string;
  readonly metrics: ReadonlyArray<{
    readonly value?: string;
    readonly labels?: Record<string, string>;
    readonly buckets?: Record<string, string>;
    readonly count?: string;
  }>;
}

export function parseMetrics(text: string): Map<string, MetricFamily> {
  const families = parsePrometheusTextFormat(text) as MetricFamily[];
  return new Map(families.map((f) => [f.name, f]));
}

/** The value of one series (0 when absent), labels matched exactly on the given keys. */
export function sample(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.get(name);
  const match = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return match?.value === undefined ? 0 : Number(match.value);
}

export interface TestDaemon {
  readonly child: ChildProcess;
  readonly port: number;
  readonly base: string;
  readonly stateDir: string;
}

export async function startTestDaemon(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  stateDir = tempState('moor-observe-'),
): Promise<TestDaemon> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [MOOR_BIN, 'daemon', 'run', '--detached', '--http', `127.0.0.1:${port}`, ...args],
    {
      env: { ...process.env, MOOR_STATE_DIR: stateDir, ...env },
      stdio: 'ignore',
    },
  );
  track(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).status < 500) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('daemon did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  // The daemon keeps its bearer token in its state dir (written before it listens).
  const tokenFile = path.join(stateDir, 'http.token');
  if (fs.existsSync(tokenFile)) tokens.set(base, fs.readFileSync(tokenFile, 'utf8').trim());
  return { child, port, base, stateDir };
}

const tokens = new Map<string, string>();

/** The Authorization header a request to the daemon at `base` needs (none when it runs without a token). */
export function authOf(base: string): Record<string, string> {
  const token = tokens.get(base);
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

export async function stopTestDaemon(daemon: TestDaemon): Promise<void> {
  if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) return;
  const exited = new Promise((r) => daemon.child.once('exit', r));
  daemon.child.kill('SIGTERM');
  await exited;
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'observe-e2e', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let nextId = 1;

/** A modern tools/call; `meta` adds to the envelope (traceparent). */
export async function callTool(
  base: string,
  name: string,
  args: Record<string, unknown>,
  options: { meta?: Record<string, unknown>; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...authOf(base),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { ...MODERN_META, ...options.meta } },
    }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** GET with raw headers (fetch cannot send another Host). */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function scrape(base: string): Promise<Map<string, MetricFamily>> {
  const response = await fetch(`${base}/metrics`, { headers: authOf(base) });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return parseMetrics(await response.text());
}

export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>;
  /** 0 unset, 1 ok, 2 error. */
  readonly status?: { readonly code?: number; readonly message?: string };
}

/** A node:http OTLP receiver collecting the spans of every JSON export. */
export async function otlpReceiver(): Promise<{ url: string; spans: OtlpSpan[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces' && (req.headers['content-type'] ?? '').includes('json')) {
        const exported = JSON.parse(body) as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        for (const rs of exported.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}
