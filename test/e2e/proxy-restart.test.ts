/**
 * The proxy survives its daemon: kill -9 during calls, a graceful restart
 * under load, many proxies starting at once, tool-list changes, stdin EOF.
 * Real processes; every daemon is killed afterwards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanupAll,
  control,
  daemonProcesses,
  incarnationPid,
  isAlive,
  makeState,
  runCli,
  startDaemon,
  waitFor,
} from '../daemon/harness.js';
import { ProxyClient } from '../proxy/proxy-client.js';

afterEach(cleanupAll);

const RESTARTED = 'the daemon restarted while this call ran; it may or may not have completed';

describe('kill -9 of the daemon', () => {
  it('every one of 50 concurrent read-only calls is answered, correctly, by the restarted daemon', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const client = new ProxyClient(state);
    await client.initialize();
    // No tools/list from the client: the proxy learns slow_read is read-only by itself.
    const first = incarnationPid(state) as number;
    const ids: Array<{ id: number | string; kind: 'slow' | 'get'; n: number }> = [];
    for (let n = 0; n < 50; n++) {
      if (n % 2 === 0)
        ids.push({
          id: client.send('tools/call', { name: 'slow_read', arguments: { ms: 1500, label: `c${n}` } }),
          kind: 'slow',
          n,
        });
      else
        ids.push({
          id: client.send('tools/call', { name: 'get_decision', arguments: { ref: String((n % 5) + 1) } }),
          kind: 'get',
          n,
        });
    }
    await new Promise((r) => setTimeout(r, 300));
    process.kill(first, 'SIGKILL');
    for (const { id, kind, n } of ids) {
      const answer = await client.response(id);
      expect(answer.error, `call ${n}`).toBeUndefined();
      if (kind === 'slow')
        expect(answer.result?.structuredContent).toMatchObject({ label: `c${n}`, slept: 1500 });
      else expect(answer.result?.structuredContent).toMatchObject({ number: (n % 5) + 1 });
      expect(client.responses(id)).toHaveLength(1);
    }
    const second = incarnationPid(state) as number;
    expect(second).not.toBe(first);
    // The slow calls that were cut off ran again on the new daemon.
    const slowPids = new Set(
      ids
        .filter((i) => i.kind === 'slow')
        .map((i) => client.responses(i.id)[0]?.result?.structuredContent as { pid: number })
        .map((s) => s.pid),
    );
    expect(slowPids).toEqual(new Set([second]));
    // The legacy session still works after the replayed handshake (its duplicate answer was swallowed).
    expect(client.responses(1)).toHaveLength(1);
    expect((await client.request('tools/list')).result?.tools).toBeDefined();
    expect(await client.close()).toBe(0);
  });

  it('survives a second kill right after the restart (during the replay)', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const client = new ProxyClient(state);
    await client.initialize();
    await client.request('tools/list');
    const ids = Array.from({ length: 20 }, (_, n) =>
      client.send('tools/call', { name: 'slow_read', arguments: { ms: 800, label: `k${n}` } }),
    );
    await new Promise((r) => setTimeout(r, 200));
    const first = incarnationPid(state) as number;
    process.kill(first, 'SIGKILL');
    const second = await waitFor('a second daemon', () => {
      const pid = incarnationPid(state);
      return pid !== undefined && pid !== first ? pid : undefined;
    });
    process.kill(second, 'SIGKILL');
    for (const [n, id] of ids.entries()) {
      const answer = await client.response(id, 20_000);
      expect(answer.result?.structuredContent, JSON.stringify(answer)).toMatchObject({ label: `k${n}` });
    }
    expect((await client.request('tools/list')).result?.tools).toBeDefined();
  });

  it('a non-read-only call in flight gets a clear -32051 error, with no hang', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const client = new ProxyClient(state);
    await client.initialize();
    await client.request('tools/list');
    const write = client.send('tools/call', { name: 'slow_write', arguments: { ms: 20_000 } });
    const read = client.send('tools/call', { name: 'slow_read', arguments: { ms: 500 } });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    process.kill(incarnationPid(state) as number, 'SIGKILL');
    const answer = await client.response(write, 5000);
    expect(answer.error).toEqual({ code: -32051, message: RESTARTED });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await client.response(read)).result?.structuredContent).toMatchObject({ slept: 500 });
  });
});

describe('graceful restart', () => {
  it('`moor daemon restart` under load loses no response', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    await startDaemon(state, ['--detached']);
    const legacy = new ProxyClient(state);
    const modern = new ProxyClient(state);
    await legacy.initialize();
    // Closed-loop load: 8 workers per client, each sending its next call once the last one is answered.
    const sent: Array<{ answer: Awaited<ReturnType<ProxyClient['response']>>; ref: number }> = [];
    let stop = false;
    const worker = async (c: ProxyClient, w: number) => {
      for (let n = 0; !stop; n++) {
        const ref = w % 2 === 0 ? (n % 5) + 1 : 0;
        const call =
          ref > 0
            ? { name: 'get_decision', arguments: { ref: String(ref) } }
            : { name: 'slow_read', arguments: { ms: 100 } };
        sent.push({ answer: await c.response(c.send('tools/call', call, c === modern)), ref });
      }
    };
    const load = Promise.all(
      [legacy, modern].flatMap((c) => Array.from({ length: 8 }, (_, w) => worker(c, w))),
    );
    await new Promise((r) => setTimeout(r, 300));
    const before = incarnationPid(state);
    const restarted = await runCli(state, ['daemon', 'restart']);
    expect(restarted.code, restarted.stderr).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await load;
    expect(incarnationPid(state)).not.toBe(before);
    for (const { answer, ref } of sent) {
      expect(answer.error, `request ${answer.id}`).toBeUndefined();
      if (ref > 0) expect(answer.result?.structuredContent).toMatchObject({ number: ref });
      else expect(answer.result?.structuredContent).toMatchObject({ slept: 100 });
    }
    expect(sent.length).toBeGreaterThan(50);
  });
});

describe('graceful restart and listen streams', () => {
  it('a listen stream ended by a stopping daemon is re-opened on the next one, invisibly to the client', async () => {
    const state = makeState();
    await startDaemon(state, ['--detached']);
    const client = new ProxyClient(state);
    const listen = client.send(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      true,
      'l-1',
    );
    await client.until('ack', () => client.notifications('notifications/subscriptions/acknowledged')[0]);
    const before = incarnationPid(state);
    const restarted = await runCli(state, ['daemon', 'restart']);
    expect(restarted.code, restarted.stderr).toBe(0);
    await waitFor('the proxy to be back', async () => {
      const status = await control(state, 'status');
      return status && status.incarnation.pid !== before && status.status?.connectedClients === 1
        ? true
        : undefined;
    });
    expect((await client.request('tools/list', {}, true)).result?.tools).toBeDefined();
    expect(client.responses(listen)).toHaveLength(0);
    expect(client.notifications('notifications/subscriptions/acknowledged')).toHaveLength(1);
  });
});

describe('a daemon draining its grace period', () => {
  it('a proxy started meanwhile waits for it to go, then starts the next one: its request is answered', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    await startDaemon(state, ['--detached', '--grace-ms', '12000']);
    const busy = new ProxyClient(state);
    const write = busy.send('tools/call', { name: 'slow_write', arguments: { ms: 8500 } }, true);
    await waitFor('the call in flight', async () =>
      (await control(state, 'status'))?.status?.inFlight === 1 ? true : undefined,
    );
    const old = incarnationPid(state);
    expect(await control(state, 'stop')).toBeDefined();
    const late = new ProxyClient(state);
    const answer = await late.request('tools/list', {}, true);
    expect(answer.result?.tools).toBeDefined();
    expect(late.stderr.join('\n')).toMatch(/waiting for the daemon \(pid \d+\) to finish shutting down/);
    expect(incarnationPid(state)).not.toBe(old);
    expect((await busy.response(write)).result?.structuredContent).toMatchObject({ slept: 8500 });
  }, 40_000);
});

describe('starting', () => {
  it('ten `moor stdio` started at once start exactly one daemon', async () => {
    const state = makeState();
    const clients = Array.from({ length: 10 }, () => new ProxyClient(state));
    const answers = await Promise.all(clients.map((c) => c.request('tools/list', {}, true)));
    for (const a of answers) expect(a.result?.tools).toBeDefined();
    // Those may have come primed (proxy/priming.ts). Only a daemon answers a modern ping (-32601, no
    // such method there): once each is answered, every proxy is connected.
    for (const c of clients) expect((await c.request('ping', {}, true)).error?.code).toBe(-32601);
    const status = await control(state, 'status');
    expect(status?.status?.connectedClients).toBe(10);
    await waitFor('the losing daemons to exit', () =>
      daemonProcesses(state).length === 1 ? true : undefined,
    );
    expect(daemonProcesses(state)).toEqual([status?.incarnation.pid]);
    for (const c of clients) expect(await c.close()).toBe(0);
  });

  it('stdin EOF: the proxy exits 0 promptly and the daemon keeps running', async () => {
    const state = makeState();
    const client = new ProxyClient(state);
    await client.request('tools/list', {}, true);
    // The list may have come primed (proxy/priming.ts); only the daemon answers a modern ping (-32601).
    expect((await client.request('ping', {}, true)).error?.code).toBe(-32601);
    const daemon = incarnationPid(state) as number;
    const started = Date.now();
    expect(await client.close()).toBe(0);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(isAlive(daemon)).toBe(true);
    expect((await control(state, 'status'))?.status?.connectedClients).toBe(0);
  });
});

/** The tools MOOR_TEST_PACK=1 adds: broken_tool, slow_read, slow_write. */
const TEST_PACK_TOOLS = 3;

describe('after a restart', () => {
  it('a changed tool list reaches a legacy client as one tools/list_changed, and only on a real change', async () => {
    const state = makeState();
    await startDaemon(state, ['--detached'], { MOOR_TEST_PACK: '' });
    // This proxy restarts the daemon with the test pack: a different tool list.
    const client = new ProxyClient(state, undefined, { MOOR_TEST_PACK: '1' });
    await client.initialize();
    const before = ((await client.request('tools/list')).result?.tools as unknown[] | undefined)?.length ?? 0;
    process.kill(incarnationPid(state) as number, 'SIGKILL');
    await client.until('list_changed', () => client.notifications('notifications/tools/list_changed')[0]);
    expect((await client.request('tools/list')).result?.tools).toHaveLength(before + TEST_PACK_TOOLS);
    // Same list after a second restart: no notification.
    const second = incarnationPid(state) as number;
    process.kill(second, 'SIGKILL');
    await waitFor('a third daemon', () => {
      const pid = incarnationPid(state);
      return pid !== undefined && pid !== second && isAlive(pid) ? pid : undefined;
    });
    expect((await client.request('tools/list')).result?.tools).toHaveLength(before + TEST_PACK_TOOLS);
    expect(client.notifications('notifications/tools/list_changed')).toHaveLength(1);
  });

  it('a modern client gets it on its listen stream, stamped with the subscription id; the listen survives', async () => {
    const state = makeState();
    await startDaemon(state, ['--detached'], { MOOR_TEST_PACK: '' });
    const client = new ProxyClient(state, undefined, { MOOR_TEST_PACK: '1' });
    await client.request('tools/list', {}, true);
    const listen = client.send(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      true,
      'listen-1',
    );
    await client.until('ack', () => client.notifications('notifications/subscriptions/acknowledged')[0]);
    process.kill(incarnationPid(state) as number, 'SIGKILL');
    const changed = await client.until(
      'list_changed',
      () => client.notifications('notifications/tools/list_changed')[0],
    );
    expect(changed.params?._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': listen });
    await new Promise((r) => setTimeout(r, 300));
    expect(client.notifications('notifications/subscriptions/acknowledged')).toHaveLength(1);
    expect(client.responses(listen)).toHaveLength(0);
    expect(client.notifications('notifications/tools/list_changed')).toHaveLength(1);
  });

  it('a cancelled request is not answered late', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const client = new ProxyClient(state);
    await client.initialize();
    const id = client.send('tools/call', { name: 'slow_read', arguments: { ms: 300 } });
    client.notify('notifications/cancelled', { requestId: id, reason: 'test' });
    await new Promise((r) => setTimeout(r, 700));
    expect(client.responses(id)).toHaveLength(0);
    expect((await client.request('ping')).result).toEqual({});
  });
});
