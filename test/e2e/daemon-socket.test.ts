/**
 * The built daemon over its socket: hello handling, file modes, the lock,
 * status, admission, graceful shutdown and trace logging. Real processes,
 * a temporary state dir per test.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanupAll,
  control,
  daemonProcesses,
  exitOf,
  isAlive,
  makeState,
  paths,
  runCli,
  startDaemon,
  waitFor,
} from '../daemon/harness.js';
import { SocketClient } from '../daemon/socket-client.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { MODERN_META } from '../helpers/raw-client.js';

afterEach(cleanupAll);

const TEST_PACK = { MOOR_TEST_PACK: '1' };

describe('socket hello', () => {
  it('answers a bad hello with one error line and closes', async () => {
    const state = makeState();
    await startDaemon(state);
    for (const bad of [
      'not json',
      '{"moor":2,"sessionKey":"moor-aaaaaaaa"}',
      '{"moor":1,"sessionKey":"x"}',
    ]) {
      const client = new SocketClient(paths(state).socket);
      client.write(`${bad}\n`);
      await client.until('close', () => (client.closed ? true : undefined));
      expect(client.lines).toHaveLength(1);
      expect(client.lines[0]?.json).toMatchObject({ moor: 1, ok: false, error: { code: 'HELLO_INVALID' } });
    }
  });

  it('answers a session hello with the incarnation, then serves MCP (bytes sent with the hello are kept)', async () => {
    const state = makeState();
    const { pid } = await startDaemon(state);
    const client = new SocketClient(paths(state).socket);
    const hello = {
      moor: 1,
      sessionKey: 'moor-0123456789abcdef',
      client: { name: 't', version: '1' },
      workspace: E2E_WORKSPACE,
    };
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: MODERN_META },
    };
    // One write: the hello and the first request arrive in the same chunk.
    client.write(`${JSON.stringify(hello)}\n${JSON.stringify(request)}\n`);
    const answer = await client.response(1);
    expect(client.lines[0]?.json).toMatchObject({
      ok: true,
      incarnation: { pid, version: expect.any(String) },
    });
    expect((answer.json.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain(
      'get_decision',
    );
    client.close();
  });

  it('refuses a workspace that does not exist', async () => {
    const state = makeState();
    await startDaemon(state);
    const client = new SocketClient(paths(state).socket);
    await client.hello('/nonexistent/moor/workspace');
    expect(client.lines[0]?.json).toMatchObject({ ok: false, error: { code: 'WORKSPACE_INVALID' } });
  });
});

describe('state dir', () => {
  it('creates the dir 0700 and the socket 0600', async () => {
    const state = makeState();
    fs.rmSync(state.dir, { recursive: true });
    await startDaemon(state);
    expect(fs.statSync(state.dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(paths(state).socket).mode & 0o777).toBe(0o600);
    expect(fs.statSync(paths(state).lock).mode & 0o777).toBe(0o600);
  });

  it('takes over a stale lock and a stale socket left by a dead daemon', async () => {
    const state = makeState();
    const dead = spawn(process.execPath, ['-e', '0']);
    await exitOf(dead);
    fs.writeFileSync(paths(state).lock, `${dead.pid}\n`);
    fs.writeFileSync(paths(state).socket, '');
    const { pid } = await startDaemon(state);
    expect(fs.readFileSync(paths(state).lock, 'utf8').trim()).toBe(String(pid));
    expect(fs.statSync(paths(state).socket).isSocket()).toBe(true);
  });

  it('a second detached daemon on the same state dir exits cleanly and the first keeps serving', async () => {
    const state = makeState();
    const { pid } = await startDaemon(state);
    // Detached, as proxies and `daemon start` spawn it (a foreground run takes over instead).
    const second = await runCli(state, ['daemon', 'run', '--detached']);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`already running .*pid ${pid}`));
    expect((await control(state, 'status'))?.incarnation.pid).toBe(pid);
  });

  it('five daemons started at once: exactly one wins', async () => {
    const state = makeState();
    const children = Array.from({ length: 5 }, () =>
      spawn(process.execPath, ['dist/cli/main.js', 'daemon', 'run', '--detached'], {
        env: state.env,
        stdio: 'ignore',
      }),
    );
    for (const c of children) if (c.pid) state.pids.add(c.pid);
    const reply = await waitFor('a daemon', () => control(state, 'status'));
    await waitFor('losers to exit', () =>
      children.filter((c) => c.exitCode === null).length === 1 ? true : undefined,
    );
    expect(daemonProcesses(state)).toEqual([reply.incarnation.pid]);
    const losers = children.filter((c) => c.exitCode !== null);
    expect(losers.map((c) => c.exitCode)).toEqual([0, 0, 0, 0]);
  });
});

describe('start, status, stop', () => {
  it('start returns once the daemon answers; status shows its fields; stop exits it', async () => {
    const state = makeState();
    const started = await runCli(state, ['daemon', 'start']);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/moor daemon started: pid \d+/);
    const again = await runCli(state, ['daemon', 'start']);
    expect(again.stdout).toMatch(/already running/);

    const client = new SocketClient(paths(state).socket);
    await client.hello(E2E_WORKSPACE);
    await client.response(client.send('tools/list'));

    const status = await runCli(state, ['daemon', 'status', '--json']);
    expect(status.code).toBe(0);
    const view = JSON.parse(status.stdout);
    expect(view).toMatchObject({
      running: true,
      incarnation: { pid: expect.any(Number), startedAt: expect.any(String), version: expect.any(String) },
      version: view.incarnation.version,
      socket: paths(state).socket,
      httpUrl: null,
      connectedClients: 1,
      inFlight: 0,
      maxInFlight: 64,
      workspaces: [{ root: E2E_WORKSPACE, connections: 1 }],
    });
    expect(view.uptimeMs).toBeGreaterThanOrEqual(0);
    const human = await runCli(state, ['daemon', 'status']);
    expect(human.stdout).toMatch(/running, pid/);
    client.close();

    const pid = view.incarnation.pid as number;
    const stopped = await runCli(state, ['daemon', 'stop']);
    expect(stopped.stdout).toMatch(/stopped/);
    expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(paths(state).socket)).toBe(false);
    expect(fs.existsSync(paths(state).lock)).toBe(false);
    const after = await runCli(state, ['daemon', 'status', '--json']);
    expect(JSON.parse(after.stdout)).toMatchObject({ running: false });
  });
});

describe('rooms', () => {
  it('two connections on one repository share a room, unloaded after the keep-alive once both leave', async () => {
    const state = makeState();
    await startDaemon(state, ['--room-keepalive-ms', '300']);
    const a = new SocketClient(paths(state).socket);
    const b = new SocketClient(paths(state).socket);
    // Two sessions (two proxies): a room is held per session binding.
    await a.hello(E2E_WORKSPACE, 'moor-test-session-a');
    await b.hello(E2E_WORKSPACE, 'moor-test-session-b');
    // A connection's room loads after its first answer, or for the first call that needs it: here, the latter.
    const search = { name: 'search_decisions', arguments: { query: 'storage' } };
    await Promise.all([a.response(a.send('tools/call', search)), b.response(b.send('tools/call', search))]);
    expect((await control(state, 'status'))?.status?.workspaces).toEqual([
      { root: E2E_WORKSPACE, connections: 2 },
    ]);
    a.close();
    b.close();
    await waitFor('the room to be kept alive', async () => {
      const ws = (await control(state, 'status'))?.status?.workspaces;
      return ws?.[0]?.connections === 0 ? ws : undefined;
    });
    await waitFor('the room to unload', async () => {
      const ws = (await control(state, 'status'))?.status?.workspaces;
      return ws?.length === 0 ? true : undefined;
    });
  });
});

describe('admission and shutdown', () => {
  it('refuses requests beyond the in-flight limit with -32050', async () => {
    const state = makeState(TEST_PACK);
    await startDaemon(state, ['--max-in-flight', '2']);
    const client = new SocketClient(paths(state).socket);
    await client.hello(E2E_WORKSPACE);
    const slow = [1, 2].map(() => client.send('tools/call', { name: 'slow_read', arguments: { ms: 1500 } }));
    await new Promise((r) => setTimeout(r, 200));
    const refused = await client.response(client.send('tools/list'));
    expect(refused.json.error).toMatchObject({
      code: -32050,
      message: 'moor daemon is busy: 2 requests in flight; retry shortly',
    });
    for (const id of slow) expect((await client.response(id)).json.result).toBeDefined();
    // Slots come back once answered.
    expect((await client.response(client.send('tools/list'))).json.result).toBeDefined();
  });

  it('graceful stop: in-flight calls finish within the grace, late ones get -32051, new ones are refused, exit 0', async () => {
    const state = makeState(TEST_PACK);
    const daemon = await startDaemon(state, ['--grace-ms', '800']);
    const client = new SocketClient(paths(state).socket);
    await client.hello(E2E_WORKSPACE);
    const quick = client.send('tools/call', { name: 'slow_write', arguments: { ms: 300 } });
    const long = client.send('tools/call', { name: 'slow_write', arguments: { ms: 20_000 } });
    const listen = client.send('subscriptions/listen', { notifications: { toolsListChanged: true } });
    await waitFor('both calls in flight', async () =>
      (await control(state, 'status'))?.status?.inFlight === 2 ? true : undefined,
    );
    process.kill(daemon.pid, 'SIGTERM');
    // Shutdown has begun once the listener stops accepting.
    await waitFor('the daemon to stop accepting', async () =>
      (await control(state, 'status')) ? undefined : true,
    );
    const late = client.send('tools/list');
    expect((await client.response(late)).json.error).toMatchObject({
      code: -32051,
      message: 'moor daemon is shutting down',
    });
    expect((await client.response(quick)).json.result).toMatchObject({ structuredContent: { slept: 300 } });
    expect((await client.response(long)).json.error).toMatchObject({
      code: -32051,
      message: 'daemon shutting down',
    });
    expect((await client.response(listen)).json.result).toMatchObject({ resultType: 'complete' });
    expect(await exitOf(daemon.child)).toBe(0);
    await client.until('close', () => (client.closed ? true : undefined));
    expect(fs.existsSync(paths(state).socket)).toBe(false);
  });

  it('logs a request with trace=<id> when its _meta carries a valid traceparent, never tracestate or baggage', async () => {
    const state = makeState();
    await startDaemon(state, ['--log-level', 'debug', '--detached']);
    const client = new SocketClient(paths(state).socket);
    await client.hello(E2E_WORKSPACE);
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const meta = {
      traceparent: `00-${trace}-00f067aa0ba902b7-01`,
      tracestate: 'secret=state',
      baggage: 'secret=baggage',
    };
    await client.response(client.send('tools/list', { _meta: meta }));
    await client.response(
      client.send('tools/list', { _meta: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` } }),
    );
    await runCli(state, ['daemon', 'stop']);
    const log = fs.readFileSync(paths(state).log, 'utf8');
    const lines = log.split('\n').filter((l) => l.includes('tools/list'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`trace=${trace}`);
    expect(lines[1]).not.toContain('trace=');
    expect(log).not.toContain('secret=');
  });
});

describe('with HTTP', () => {
  it('serves /healthz, reports the URL in status, and shares one admission gate with the socket', async () => {
    const state = makeState(TEST_PACK);
    await startDaemon(state, ['--http', '127.0.0.1:0', '--max-in-flight', '1']);
    const status = await control(state, 'status');
    const url = status?.status?.httpUrl as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // The daemon requires the bearer token it keeps in its state dir.
    const authorization = `Bearer ${fs.readFileSync(`${state.dir}/http.token`, 'utf8').trim()}`;
    const health = await fetch(url.replace(/\/mcp$/, '/healthz'), { headers: { authorization } });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ incarnation: { pid: status?.incarnation.pid } });

    const client = new SocketClient(paths(state).socket);
    await client.hello(E2E_WORKSPACE);
    const slow = client.send('tools/call', { name: 'slow_read', arguments: { ms: 1500 } });
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await client.response(slow)).json.result).toBeDefined();
    const stopped = await runCli(state, ['daemon', 'stop']);
    expect(stopped.stdout).toMatch(/stopped/);
  });
});
