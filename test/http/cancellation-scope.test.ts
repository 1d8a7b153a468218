/**
 * Who may cancel a 2025-era request over HTTP: a posted
 * notifications/cancelled reaches only a request of the same Moor-Session,
 * and a request without a session only from its own connection — so one
 * session-less client cannot cancel another's by guessing ids like 1.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/until.js';
import { fixture, legacyBody, messages, post, probe, type Started, start } from './helpers.js';

const fx = fixture();
const started: Started[] = [];

afterEach(async () => {
  for (const s of started.splice(0)) await s.endpoint.close(100);
  probe.reset();
});

afterAll(() => fx.close());

const LEGACY = { 'mcp-protocol-version': '2025-11-25' };

describe('cancellation scope', () => {
  it.each([
    ['lean path', true],
    ['SDK path', false],
  ])(
    'a session-less cancellation from another connection does not touch a session-less request (%s)',
    async (_l, lean) => {
      const s = await start(fx, { lean });
      started.push(s);
      const aborter = new AbortController();
      const call = post(
        s.url,
        legacyBody(1, 'tools/call', { name: 'wait', arguments: { tag: 'nosession', ms: 30_000 } }),
        LEGACY,
        { signal: aborter.signal },
      ).catch(() => undefined);
      await until(() => probe.started.has('nosession'));
      const cancel = await post(
        s.url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        LEGACY,
      );
      expect(cancel.status).toBe(202);
      expect(probe.aborted.has('nosession')).toBe(false);
      // Its own client still ends it, by closing its connection.
      aborter.abort();
      await until(() => probe.aborted.has('nosession'));
      await call;
    },
  );

  it('a cancellation with a session still reaches that session’s request', async () => {
    const s = await start(fx, { lean: false });
    started.push(s);
    const headers = { ...LEGACY, 'moor-session': 'moor-cancel-scope-1' };
    const call = post(
      s.url,
      legacyBody(1, 'tools/call', { name: 'wait', arguments: { tag: 'withsession', ms: 30_000 } }),
      headers,
    );
    await until(() => probe.started.has('withsession'));
    const cancel = await post(
      s.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      headers,
    );
    expect(cancel.status).toBe(202);
    await until(() => probe.aborted.has('withsession'));
    expect(messages(await call)).toEqual([]);
  });
});
