/**
 * GET /metrics and `moor daemon metrics` against the built daemon: the
 * metric types, counters that move after known calls (a tools/call of a
 * known tool, an unknown tool counted as "unknown", a refused admission, a
 * cancelled call), the guards (token, Host), and the same text over the
 * socket for a daemon without HTTP.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { killAll, removeStateDirs, tempState } from '../tasks/daemon-helpers.js';
import {
  authOf,
  callTool,
  parseMetrics,
  rawGet,
  sample,
  scrape,
  startTestDaemon,
  stopTestDaemon,
} from './helpers.js';

const run = promisify(execFile);

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

describe('GET /metrics', () => {
  it('exposes typed moor_* metrics whose counters follow the calls made', async () => {
    const daemon = await startTestDaemon(['-w', E2E_WORKSPACE, '--max-in-flight', '1'], {
      MOOR_TEST_PACK: '1',
    });
    try {
      const before = await scrape(daemon.base);
      expect(before.get('moor_requests_total')?.type).toBe('COUNTER');
      expect(before.get('moor_tool_calls_total')?.type).toBe('COUNTER');
      expect(before.get('moor_admission_refused_total')?.type).toBe('COUNTER');
      expect(before.get('moor_tool_call_duration_seconds')?.type).toBe('HISTOGRAM');
      for (const gauge of [
        'moor_inflight_requests',
        'moor_sessions',
        'moor_rooms_loaded',
        'moor_tasks',
        'moor_listen_streams',
      ])
        expect(before.get(gauge)?.type, gauge).toBe('GAUGE');
      expect(before.get('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
      expect(sample(before, 'moor_tool_calls_total', { tool: 'search_decisions', outcome: 'ok' })).toBe(0);

      const ok = await callTool(daemon.base, 'search_decisions', { query: 'storage' });
      expect(ok.status).toBe(200);
      const unknown = await callTool(daemon.base, 'no_such_tool_x7', {});
      expect((unknown.body.error as { code: number }).code).toBe(-32602);

      const after = await scrape(daemon.base);
      expect(sample(after, 'moor_tool_calls_total', { tool: 'search_decisions', outcome: 'ok' })).toBe(1);
      expect(sample(after, 'moor_tool_calls_total', { tool: 'unknown', outcome: 'error' })).toBe(1);
      // The label never carries the name the client made up.
      expect(JSON.stringify([...after.values()])).not.toContain('no_such_tool_x7');
      const ok200 = { transport: 'http', era: 'modern', method: 'tools/call' };
      expect(sample(after, 'moor_requests_total', { ...ok200, outcome: 'ok' })).toBe(1);
      expect(sample(after, 'moor_requests_total', { ...ok200, outcome: 'error' })).toBe(1);
      // The parser keeps no labels on histogram series: read the count line itself.
      const text = await (await fetch(`${daemon.base}/metrics`, { headers: authOf(daemon.base) })).text();
      expect(text).toMatch(/^moor_tool_call_duration_seconds_count\{tool="search_decisions"\} 1$/m);
      expect(text).toMatch(
        /^moor_tool_call_duration_seconds_bucket\{le="\+Inf",tool="search_decisions"\} 1$/m,
      );
      expect(sample(after, 'moor_rooms_loaded')).toBe(1);

      // One slow call holds the only slot; the next is refused, then the slow one is cancelled.
      const abort = new AbortController();
      const slow = callTool(daemon.base, 'slow_read', { ms: 30_000 }, { signal: abort.signal }).catch(
        () => undefined,
      );
      for (let i = 0; i < 200 && sample(await scrape(daemon.base), 'moor_inflight_requests') !== 1; i++)
        await new Promise((r) => setTimeout(r, 25));
      const refused = await callTool(daemon.base, 'search_decisions', { query: 'x' });
      expect(refused.status).toBe(503);
      expect((refused.body.error as { code: number }).code).toBe(-32050);
      abort.abort();
      await slow;
      let final = await scrape(daemon.base);
      for (let i = 0; i < 200 && sample(final, 'moor_inflight_requests') !== 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
        final = await scrape(daemon.base);
      }
      expect(sample(final, 'moor_admission_refused_total', { transport: 'http', reason: 'busy' })).toBe(1);
      expect(sample(final, 'moor_requests_total', { ...ok200, outcome: 'refused' })).toBe(1);
      expect(sample(final, 'moor_requests_total', { ...ok200, outcome: 'cancelled' })).toBe(1);
      // Label values stay inside their vocabularies.
      for (const m of final.get('moor_requests_total')?.metrics ?? []) {
        expect(['socket', 'http']).toContain(m.labels?.transport);
        expect(['modern', 'legacy']).toContain(m.labels?.era);
        expect(['ok', 'error', 'refused', 'cancelled']).toContain(m.labels?.outcome);
      }
    } finally {
      await stopTestDaemon(daemon);
    }
  });

  it('sits behind the same guards as /mcp: a token when one is set, and the Host check', async () => {
    const stateDir = tempState('moor-observe-');
    const tokenFile = path.join(stateDir, 'token');
    writeFileSync(tokenFile, 'observe-secret-token-0123456789abcdef\n', { mode: 0o600 });
    const daemon = await startTestDaemon(['-w', E2E_WORKSPACE, '--token-file', tokenFile], {}, stateDir);
    try {
      const host = `127.0.0.1:${daemon.port}`;
      expect((await rawGet(daemon.port, '/metrics', { host })).status).toBe(401);
      expect((await rawGet(daemon.port, '/status', { host })).status).toBe(401);
      expect((await rawGet(daemon.port, '/metrics', { host, authorization: 'Bearer wrong' })).status).toBe(
        401,
      );
      const good = await rawGet(daemon.port, '/metrics', {
        host,
        authorization: 'Bearer observe-secret-token-0123456789abcdef',
      });
      expect(good.status).toBe(200);
      expect(parseMetrics(good.body).has('moor_requests_total')).toBe(true);
      const badHost = await rawGet(daemon.port, '/metrics', {
        host: 'evil.example',
        authorization: 'Bearer observe-secret-token-0123456789abcdef',
      });
      expect(badHost.status).toBe(403);
    } finally {
      await stopTestDaemon(daemon);
    }
  });
});

describe('moor daemon metrics', () => {
  it('prints the same exposition over the socket, socket requests included', async () => {
    const stateDir = tempState('moor-observe-');
    const env = { ...process.env, MOOR_STATE_DIR: stateDir };
    const client = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--workspace', E2E_WORKSPACE], env);
    try {
      const answer = await client.modern('tools/call', {
        name: 'search_decisions',
        arguments: { query: 'storage' },
      });
      expect(answer.error).toBeUndefined();
      const { stdout } = await run(process.execPath, [MOOR_BIN, 'daemon', 'metrics'], { env });
      const families = parseMetrics(stdout);
      expect(
        sample(families, 'moor_requests_total', {
          transport: 'socket',
          era: 'modern',
          method: 'tools/call',
          outcome: 'ok',
        }),
      ).toBe(1);
      expect(sample(families, 'moor_tool_calls_total', { tool: 'search_decisions', outcome: 'ok' })).toBe(1);
      expect(sample(families, 'moor_sessions')).toBe(1);
    } finally {
      await client.close();
      await run(process.execPath, [MOOR_BIN, 'daemon', 'stop'], { env }).catch(() => undefined);
    }
  });
});
