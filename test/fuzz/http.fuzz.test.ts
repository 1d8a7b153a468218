/**
 * Fuzzes the HTTP endpoint (`moor daemon run --http 127.0.0.1:0`) with the
 * same generated frames as bodies, both eras (modern frames carry the
 * standard headers). No answer is a 5xx, every request with a usable id gets
 * one JSON-RPC answer, the daemon stays up, and a valid tools/list works
 * afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, control, makeState, startDaemon } from '../daemon/harness.js';
import { MODERN_META } from '../helpers/raw-client.js';
import { type Era, makeFrames } from './frames.js';
import { countOutcome, FRAMES, outcomeOf, printTallies, SEED, tally } from './tally.js';

afterEach(cleanupAll);
afterAll(() => printTallies(SEED));

const CONCURRENCY = 8;

function headersFor(era: Era, method: string | undefined, line: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    if (method !== undefined && /^[\x20-\x7e]*$/.test(method)) headers['mcp-method'] = method;
    const name = /"name":("[^"\\]*")/.exec(line)?.[1];
    if (name !== undefined && /^[\x20-\x7e]*$/.test(name)) headers['mcp-name'] = JSON.parse(name) as string;
  }
  return headers;
}

/** The JSON-RPC messages of an answer, JSON or SSE. */
function messagesOf(type: string, text: string): unknown[] {
  if (text.length === 0) return [];
  if (type.startsWith('text/event-stream'))
    return text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as unknown);
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value : [value];
}

describe('fuzz: HTTP', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`${era} era: ${FRAMES} hostile bodies, never a 5xx, every usable id answered once`, async () => {
      const t = tally(`http ${era}`);
      const state = makeState();
      await startDaemon(state, ['--http', '127.0.0.1:0']);
      const url = (await control(state, 'status'))?.status?.httpUrl as string;
      // The daemon's own bearer token (kept in its state dir): the fuzz is about bodies, not guards.
      const auth = {
        authorization: `Bearer ${fs.readFileSync(path.join(state.dir, 'http.token'), 'utf8').trim()}`,
      };
      const frames = makeFrames(era, FRAMES, SEED + 4 + (era === 'modern' ? 1 : 0));
      t.sent += frames.length;
      const failures: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < frames.length) {
          const frame = frames[next++];
          if (frame === undefined) break;
          if (frame.expect !== undefined) t.awaited += 1;
          const response = await fetch(url, {
            method: 'POST',
            headers: { ...auth, ...headersFor(era, frame.method, frame.line) },
            body: frame.line,
          });
          const text = await response.text();
          countOutcome(t, `http ${response.status}`);
          if (response.status >= 500)
            failures.push(`${response.status} ${text.slice(0, 200)} for ${frame.line.slice(0, 200)}`);
          let messages: unknown[];
          try {
            messages = messagesOf(response.headers.get('content-type') ?? '', text);
          } catch {
            failures.push(`unparseable answer ${text.slice(0, 200)} for ${frame.line.slice(0, 200)}`);
            continue;
          }
          for (const m of messages) countOutcome(t, outcomeOf(m));
          if (messages.length > 0) t.answered += 1;
          if (frame.expect === undefined) continue;
          if (frame.invalidParams === true) {
            // Params that break a method's schema: -32602 naming the field, never -32603 or a dump.
            const error = (messages[0] as { error?: { code?: number; message?: string } } | undefined)?.error;
            countOutcome(t, `invalid-params:${error?.code ?? 'result'}`);
            if (error?.code === -32603 || /\n/.test(error?.message ?? ''))
              failures.push(`invalid params answered ${text.slice(0, 200)} for ${frame.line.slice(0, 200)}`);
          }
          const mine = messages.filter((m) => (m as { id?: unknown }).id === frame.expect);
          const anonymous = messages.filter((m) => (m as { id?: unknown }).id === null);
          // Refused before dispatch, the SDK may answer with id null; never twice, never silent.
          if (mine.length + anonymous.length !== 1 || messages.length !== 1)
            failures.push(
              `answered ${messages.length} times (${text.slice(0, 200)}) for ${frame.line.slice(0, 200)}`,
            );
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(failures.slice(0, 10)).toEqual([]);
      const health = await fetch(url.replace(/\/mcp$/, '/healthz'), { headers: auth });
      expect(health.status).toBe(200);
      const final = await fetch(url, {
        method: 'POST',
        headers: { ...auth, ...headersFor(era, 'tools/list', '') },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'final',
          method: 'tools/list',
          ...(era === 'modern' ? { params: { _meta: MODERN_META } } : {}),
        }),
      });
      const [answer] = messagesOf(final.headers.get('content-type') ?? '', await final.text()) as Array<{
        result?: { tools?: unknown[] };
      }>;
      expect(answer?.result?.tools?.length).toBeGreaterThan(0);
    }, 120_000);
  }
});
