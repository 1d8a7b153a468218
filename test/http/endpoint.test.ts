/**
 * The endpoint's own behaviour with raw HTTP: guards (Host, Origin, token,
 * body size, content type), routes (healthz, 405, 404), the admission gate,
 * the moor headers, SSE keep-alive, listen streams and graceful close.
 */
import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MoorError } from '../../src/errors.js';
import { AdmissionGate } from '../../src/host/admission.js';
import { startHttpEndpoint } from '../../src/http/endpoint.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { until } from '../helpers/until.js';
import {
  base64Header,
  fixture,
  INCARNATION,
  legacyBody,
  messages,
  modernBody,
  modernHeaders,
  post,
  probe,
  type Started,
  start,
} from './helpers.js';

const fx = fixture();
const started: Started[] = [];

async function launch(overrides: Parameters<typeof start>[1] = {}): Promise<Started> {
  const s = await start(fx, overrides);
  started.push(s);
  return s;
}

afterEach(async () => {
  for (const s of started.splice(0)) await s.endpoint.close(100);
  probe.reset();
});

afterAll(() => fx.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** node:http request with full control over Host and framing. */
function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean },
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: init.method ?? 'POST',
        headers: init.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (init.chunked && init.body !== undefined) {
      const body = Buffer.from(init.body);
      for (let at = 0; at < body.length; at += 1 << 20) req.write(body.subarray(at, at + (1 << 20)));
      req.end();
    } else req.end(init.body);
  });
}

const JSON_CT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIST = JSON.stringify(modernBody(1, 'tools/list'));

describe('routes', () => {
  it('GET /healthz answers 200 with the incarnation', async () => {
    const s = await launch();
    const res = await fetch(`${s.base}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true, incarnation: INCARNATION });
  });

  it('GET and DELETE /mcp answer 405 (stateless legacy), other paths 404', async () => {
    const s = await launch();
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(s.url, { method, headers: { accept: 'application/json, text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ error: { code: -32000, message: 'Method not allowed.' } });
    }
    expect((await fetch(`${s.base}/other`, { method: 'POST' })).status).toBe(404);
  });
});

describe('binding', () => {
  it.each([
    ['::1', /^http:\/\/\[::1\]:\d+\/mcp$/],
    ['[::1]', /^http:\/\/\[::1\]:\d+\/mcp$/],
    ['localhost', /^http:\/\/localhost:\d+\/mcp$/],
  ])('serves on %s', async (host, url) => {
    const s = await launch({ host });
    expect(s.url).toMatch(url);
    expect((await post(s.url, modernBody(1, 'tools/list'), modernHeaders('tools/list'))).status).toBe(200);
  });

  it('a port in use is a clear error', async () => {
    const s = await launch();
    const port = Number(new URL(s.url).port);
    await expect(launch({ port })).rejects.toThrow(/Cannot serve HTTP on 127\.0\.0\.1:\d+: EADDRINUSE/);
  });
});

describe('DNS-rebinding guard', () => {
  it('refuses a foreign Host with 403', async () => {
    const s = await launch();
    const res = await raw(s.url, {
      headers: { ...JSON_CT, host: 'evil.example.com', ...modernHeaders('tools/list') },
      body: LIST,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Invalid Host: evil.example.com' },
      id: null,
    });
  });

  it.each(['localhost:1', '127.0.0.1:65000', '[::1]:8080', 'localhost'])('accepts Host %s', async (host) => {
    const s = await launch();
    const res = await raw(s.url, {
      headers: { ...JSON_CT, host, ...modernHeaders('tools/list') },
      body: LIST,
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['https://evil.example.com', 'Invalid Origin: evil.example.com'],
    ['null', 'Invalid Origin header: null'],
  ])('refuses Origin %s with 403', async (origin, message) => {
    const s = await launch();
    const res = await raw(s.url, {
      headers: { ...JSON_CT, origin, ...modernHeaders('tools/list') },
      body: LIST,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).error.message).toBe(message);
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1', 'http://[::1]:5173'])(
    'accepts Origin %s',
    async (origin) => {
      const s = await launch();
      const res = await raw(s.url, {
        headers: { ...JSON_CT, origin, ...modernHeaders('tools/list') },
        body: LIST,
      });
      expect(res.status).toBe(200);
    },
  );
});

describe('body and content type', () => {
  const big = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } },
  });

  it('a 5 MiB body is refused with 413, with or without Content-Length', async () => {
    const s = await launch();
    for (const chunked of [false, true]) {
      const res = await raw(s.url, {
        headers: { ...JSON_CT, 'mcp-protocol-version': '2025-11-25' },
        body: big,
        chunked,
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text).error.message).toBe(
        'Payload Too Large: Request body must not exceed 4194304 bytes',
      );
    }
  });

  it('a body just under 4 MiB is served', async () => {
    const s = await launch();
    const text = 'y'.repeat(4 * 1024 * 1024 - 200);
    const res = await post(s.url, legacyBody(2, 'tools/call', { name: 'echo', arguments: { text } }), {
      'mcp-protocol-version': '2025-11-25',
    });
    expect(res.status).toBe(200);
    expect(messages(res)[0]).toMatchObject({ result: { structuredContent: { length: text.length } } });
  });

  it('a body that is not JSON by Content-Type is refused with 415', async () => {
    const s = await launch();
    const res = await post(s.url, LIST, { 'content-type': 'text/plain', ...modernHeaders('tools/list') });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text).error.message).toBe(
      'Unsupported Media Type: Content-Type must be application/json',
    );
  });
});

describe('standard headers (2026-07-28)', () => {
  it.each([
    ['Mcp-Method mismatch', modernHeaders('tools/list', 'echo')],
    ['Mcp-Name mismatch', modernHeaders('tools/call', 'get_decision')],
    ['Mcp-Name invalid base64', modernHeaders('tools/call', '=?base64?@@@@?=')],
    ['Mcp-Name missing', modernHeaders('tools/call')],
  ])('%s → 400 with -32020', async (_label, headers) => {
    const s = await launch();
    const res = await post(
      s.url,
      modernBody(5, 'tools/call', { name: 'echo', arguments: { text: 'x' } }),
      headers,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ id: 5, error: { code: -32020 } });
  });

  it('a base64 Mcp-Name that matches is served', async () => {
    const s = await launch();
    const res = await post(
      s.url,
      modernBody(6, 'tools/call', { name: 'echo', arguments: { text: 'x' } }),
      modernHeaders('tools/call', base64Header('echo')),
    );
    expect(res.status).toBe(200);
  });
});

describe('admission', () => {
  it('beyond the in-flight limit a request gets 503 with Retry-After and -32050', async () => {
    const admission = new AdmissionGate(1);
    const s = await launch({ admission });
    const controller = new AbortController();
    const slow = post(
      s.url,
      modernBody(1, 'tools/call', { name: 'wait', arguments: { tag: 'a', ms: 30_000 } }),
      modernHeaders('tools/call', 'wait'),
      { signal: controller.signal },
    );
    slow.catch(() => {});
    await until(() => probe.started.has('a'));
    const refused = await post(s.url, modernBody(2, 'tools/list'), modernHeaders('tools/list'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(JSON.parse(refused.text)).toMatchObject({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32050, data: { executed: false } },
    });
    const traced = await post(
      s.url,
      modernBody(3, 'tools/list', {
        _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      }),
      modernHeaders('tools/list'),
    );
    expect(traced.status).toBe(503);
    expect(s.logs.map((l) => l.message)).toContain(
      'http: refused tools/list: busy trace=0af7651916cd43dd8448eb211c80319c',
    );
    // The client gives up: its work is aborted and its slot freed.
    controller.abort();
    await until(() => probe.aborted.has('a') && admission.inFlight === 0);
    expect((await post(s.url, modernBody(4, 'tools/list'), modernHeaders('tools/list'))).status).toBe(200);
  });

  it('a gate the daemon closed refuses with 503 and -32051', async () => {
    const admission = new AdmissionGate(4);
    const s = await launch({ admission });
    await admission.close(0);
    const refused = await post(s.url, legacyBody(9, 'tools/list'), { 'mcp-protocol-version': '2025-11-25' });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.text)).toMatchObject({
      id: 9,
      error: { code: -32051, data: { executed: false } },
    });
  });

  it('listen streams do not hold an in-flight slot, and close() ends them with their graceful result', async () => {
    const s = await launch({ admission: new AdmissionGate(1) });
    const controller = new AbortController();
    const listen = await fetch(s.url, {
      method: 'POST',
      headers: { ...JSON_CT, ...modernHeaders('subscriptions/listen') },
      body: JSON.stringify(
        modernBody('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      ),
      signal: controller.signal,
    });
    expect(listen.status).toBe(200);
    expect(listen.headers.get('content-type')).toBe('text/event-stream');
    const reader = listen.body?.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const first = await reader?.read();
    seen += decoder.decode(first?.value);
    expect(seen).toContain('notifications/subscriptions/acknowledged');
    // The one slot is still free.
    expect((await post(s.url, modernBody(2, 'tools/list'), modernHeaders('tools/list'))).status).toBe(200);
    const closing = s.endpoint.close(1000);
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      seen += decoder.decode(chunk.value);
    }
    await closing;
    started.splice(started.indexOf(s), 1);
    const final = seen
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)))
      .find((m) => m.id === 'listen-1');
    expect(final).toMatchObject({
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
    });
  });
});

describe('list-changed events', () => {
  it("an event published for the binding's room reaches the listen streams that asked for it", async () => {
    const s = await launch();
    const listen = await fetch(s.url, {
      method: 'POST',
      headers: { ...JSON_CT, ...modernHeaders('subscriptions/listen') },
      body: JSON.stringify(
        modernBody('l-2', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      ),
    });
    const reader = listen.body?.getReader();
    const decoder = new TextDecoder();
    let seen = decoder.decode((await reader?.read())?.value);
    expect(seen).toContain('notifications/subscriptions/acknowledged');
    fx.catalog.events.publish(E2E_WORKSPACE, { kind: 'tools_list_changed' });
    while (!seen.includes('notifications/tools/list_changed')) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      seen += decoder.decode(chunk.value);
    }
    expect(seen).toContain('"method":"notifications/tools/list_changed"');
    await reader?.cancel();
  });
});

describe('moor headers', () => {
  it('a Moor-Workspace outside the allowed roots is a 400 with -32602 saying why', async () => {
    const s = await launch();
    const res = await post(s.url, modernBody(4, 'tools/list'), {
      ...modernHeaders('tools/list'),
      'moor-workspace': '/etc',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({
      id: 4,
      error: { code: -32602, message: 'Moor-Workspace /etc is outside the allowed roots.' },
    });
  });

  it('a non-ASCII Moor-Workspace travels base64-encoded', async () => {
    const s = await launch();
    const res = await post(s.url, modernBody(4, 'tools/list'), {
      ...modernHeaders('tools/list'),
      'moor-workspace': base64Header(`${E2E_WORKSPACE}/ü`),
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toBe(
      `Moor-Workspace ${E2E_WORKSPACE}/ü is not an existing directory.`,
    );
  });

  it('a malformed Moor-Session is a 400', async () => {
    const s = await launch();
    const res = await post(s.url, modernBody(4, 'tools/list'), {
      ...modernHeaders('tools/list'),
      'moor-session': 'bad key!',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toMatch(/Moor-Session/);
  });
});

describe('SSE keep-alive', () => {
  it('a slow legacy answer sends keep-alive comments before its result (lean and SDK paths)', async () => {
    for (const lean of [true, false]) {
      const s = await launch({ keepAliveMs: 40, lean });
      const res = await post(
        s.url,
        legacyBody(1, 'tools/call', { name: 'wait', arguments: { tag: `k${lean}`, ms: 150 } }),
        {
          'mcp-protocol-version': '2025-11-25',
        },
      );
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.text).toMatch(/^: keepalive\n\n/);
      expect(res.text.endsWith('"jsonrpc":"2.0","id":1}\n\n')).toBe(true);
    }
  });
});

describe('bearer token', () => {
  it('a non-loopback bind without a token is refused', async () => {
    await expect(
      startHttpEndpoint({
        host: '0.0.0.0',
        port: 0,
        catalog: fx.catalog,
        identity: { name: 'moor', title: 't', version: '0' },
        incarnation: INCARNATION,
        admission: new AdmissionGate(),
        scopeForRequest: fx.scopeForRequest,
        onInternalError: () => {},
        log: () => {},
      }),
    ).rejects.toThrow(MoorError);
  });

  it('with a token, a request without it or with a wrong one gets 401 and a challenge', async () => {
    const s = await launch({ host: '0.0.0.0', token: 's3cret-token' });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    for (const authorization of [
      undefined,
      'Bearer wrong',
      'Bearer s3cret-token-longer',
      'Basic s3cret-token',
    ]) {
      const res = await post(s.url, modernBody(1, 'tools/list'), {
        ...modernHeaders('tools/list'),
        ...(authorization ? { authorization } : {}),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    const ok = await post(s.url, modernBody(1, 'tools/list'), {
      ...modernHeaders('tools/list'),
      authorization: 'Bearer s3cret-token',
    });
    expect(ok.status).toBe(200);
    expect(
      (await fetch(`${s.base}/healthz`, { headers: { authorization: 'Bearer s3cret-token' } })).status,
    ).toBe(200);
  });
});

describe('graceful close', () => {
  it('requests that finish within the grace period are answered normally', async () => {
    const s = await launch();
    const call = post(
      s.url,
      modernBody(1, 'tools/call', { name: 'wait', arguments: { tag: 'g1', ms: 150 } }),
      modernHeaders('tools/call', 'wait'),
    );
    await until(() => probe.started.has('g1'));
    await s.endpoint.close(5000);
    started.splice(started.indexOf(s), 1);
    const res = await call;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).result.structuredContent).toEqual({ waited: true });
  });

  it.each([
    ['modern, lean path', true, 'modern'],
    ['modern, SDK path (progress)', true, 'modern-progress'],
    ['legacy, lean path', true, 'legacy'],
    ['legacy, SDK path', false, 'legacy'],
  ])(
    'after the grace period a running request gets a clear -32051 error and its work is aborted (%s)',
    async (_l, lean, kind) => {
      const s = await launch({ lean });
      const tag = `g-${kind}-${lean}`;
      const args = { name: 'wait', arguments: { tag, ms: 30_000 } };
      const call =
        kind === 'legacy'
          ? post(s.url, legacyBody(7, 'tools/call', args), { 'mcp-protocol-version': '2025-11-25' })
          : post(
              s.url,
              modernBody(
                7,
                'tools/call',
                kind === 'modern-progress' ? { ...args, _meta: { progressToken: 1 } } : args,
              ),
              modernHeaders('tools/call', 'wait'),
            );
      await until(() => probe.started.has(tag));
      const t0 = Date.now();
      await s.endpoint.close(100);
      started.splice(started.indexOf(s), 1);
      expect(Date.now() - t0).toBeLessThan(3000);
      const res = await call;
      const [message] = messages(res).filter((m) => m.id === 7);
      expect(message).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32051, data: { executed: 'unknown' } },
      });
      expect(JSON.stringify(message?.error)).toMatch(/shutting down/);
      await until(() => probe.aborted.has(tag));
    },
  );

  it('after close nothing is accepted', async () => {
    const s = await launch();
    await s.endpoint.close(0);
    started.splice(started.indexOf(s), 1);
    await expect(fetch(s.url, { method: 'POST', headers: JSON_CT, body: LIST })).rejects.toThrow();
  });
});

describe('legacy cancellation', () => {
  it.each([
    ['lean path', true],
    ['SDK path', false],
  ])(
    'a posted notifications/cancelled aborts the matching request of the same Moor-Session, even at the in-flight limit (%s)',
    async (_l, lean) => {
      const s = await launch({ lean, admission: new AdmissionGate(1) });
      const headers = { 'mcp-protocol-version': '2025-11-25', 'moor-session': 'moor-cancel-test-1' };
      const call = post(
        s.url,
        legacyBody(3, 'tools/call', { name: 'wait', arguments: { tag: 'c1', ms: 30_000 } }),
        headers,
      );
      await until(() => probe.started.has('c1'));
      // Another session's cancellation of id 3 does not touch it.
      const other = await post(
        s.url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
        { ...headers, 'moor-session': 'moor-cancel-test-2' },
      );
      expect(other.status).toBe(202);
      expect(probe.aborted.has('c1')).toBe(false);
      const cancel = await post(
        s.url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'user' } },
        headers,
      );
      expect(cancel.status).toBe(202);
      await until(() => probe.aborted.has('c1'));
      const res = await call;
      expect(messages(res)).toEqual([]);
    },
  );
});
