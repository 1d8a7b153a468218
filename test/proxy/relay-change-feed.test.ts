/**
 * The change feed wired into the relay, against a scripted daemon on a real
 * Unix socket: the poll timer is the test's, the daemon's lists and pushes
 * are scripted. A legacy client gets one list_changed per change; the
 * proxy's own listen and its acknowledgement never reach a modern client.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HELLO_VERSION } from '../../src/protocol/hello.js';
import { statePaths } from '../../src/protocol/state-dir.js';
import type { FeedScheduler } from '../../src/proxy/change-feed.js';
import { createTestRelay } from './relay-harness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

interface Line {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

class ScriptedLists {
  tools: unknown[] = [{ name: 'a' }];
  resources: unknown[] = [{ uri: 'decision:///1' }];
  readonly received: Line[] = [];
  readonly sockets = new Set<net.Socket>();

  push(line: Line): void {
    for (const s of this.sockets) s.write(`${JSON.stringify({ jsonrpc: '2.0', ...line })}\n`);
  }
}

function scriptedDaemon(socketPath: string, lists: ScriptedLists): Promise<net.Server> {
  const server = net.createServer((socket) => {
    let buffer = '';
    let helloDone = false;
    socket.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const raw = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!helloDone) {
          helloDone = true;
          lists.sockets.add(socket);
          socket.on('close', () => lists.sockets.delete(socket));
          const incarnation = { pid: 1, startedAt: new Date().toISOString(), version: '1.0.0' };
          socket.write(`${JSON.stringify({ moor: HELLO_VERSION, ok: true, incarnation })}\n`);
          continue;
        }
        const message = JSON.parse(raw) as Line;
        lists.received.push(message);
        if (message.id === undefined || message.method === undefined) continue;
        const sub = { 'io.modelcontextprotocol/subscriptionId': message.id };
        if (message.method === 'subscriptions/listen') {
          const notifications = message.params?.notifications;
          lists.push({
            method: 'notifications/subscriptions/acknowledged',
            params: { notifications, _meta: sub },
          });
          continue;
        }
        const result =
          message.method === 'tools/list'
            ? { tools: lists.tools }
            : message.method === 'resources/list'
              ? { resources: lists.resources }
              : {};
        socket.write(`${JSON.stringify({ result, jsonrpc: '2.0', id: message.id })}\n`);
      }
    });
  });
  cleanups.push(() => {
    for (const s of lists.sockets) s.destroy();
    server.close();
  });
  return new Promise((resolve) => server.listen(socketPath, () => resolve(server)));
}

class ManualScheduler implements FeedScheduler {
  #ticks: Array<() => void> = [];
  every(_ms: number, tick: () => void): () => void {
    this.#ticks.push(tick);
    return () => {
      this.#ticks = this.#ticks.filter((t) => t !== tick);
    };
  }
  tick(): void {
    for (const t of this.#ticks) t();
  }
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() - started > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-feed-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const paths = statePaths(dir);
  const lists = new ScriptedLists();
  await scriptedDaemon(paths.socket, lists);
  const scheduler = new ManualScheduler();
  const relay = createTestRelay({
    paths,
    workspace: dir,
    sessionKey: 'moor-feed-session',
    spawn: () => undefined,
    pollMs: 1000,
    scheduler,
  });
  cleanups.push(() => relay.input.end());
  relay.relay.start();
  const lines = relay.lines as Line[];
  /** Waits until the daemon has answered `count` list requests of the proxy's own. */
  const ownLists = (count: number) =>
    until(`${count} own list requests`, () =>
      lists.received.filter((l) => String(l.id).startsWith('moor-proxy-') && /\/list$/.test(l.method ?? ''))
        .length >= count
        ? true
        : undefined,
    );
  const changed = (kind: string) => lines.filter((l) => l.method === `notifications/${kind}/list_changed`);
  return { lists, scheduler, relay, lines, ownLists, changed };
}

describe('Relay change feed', () => {
  it('a legacy client: one list_changed for a push, none for the poll that sees the same list, one for a change only a poll sees', async () => {
    const s = await setup();
    s.relay.input.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}\n',
    );
    await until('initialize answer', () => s.lines.find((l) => l.id === 1));
    s.relay.input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    // The baseline: both lists once.
    await s.ownLists(2);

    s.lists.tools = [{ name: 'a' }, { name: 'b' }];
    s.lists.push({ method: 'notifications/tools/list_changed' });
    await until('the push', () => s.changed('tools')[0]);
    await s.ownLists(3);

    s.scheduler.tick();
    await s.ownLists(5);
    // A request after the poll's answers: anything the poll emitted is in front of its answer.
    s.relay.input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await until('ping', () => s.lines.find((l) => l.id === 2));
    expect(s.changed('tools')).toHaveLength(1);
    expect(s.changed('resources')).toHaveLength(0);

    s.lists.resources = [{ uri: 'decision:///1' }, { uri: 'decision:///2' }];
    s.scheduler.tick();
    await until('the poll', () => s.changed('resources')[0]);
    expect(s.changed('resources')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
    ]);
    expect(s.changed('tools')).toHaveLength(1);
  });

  it('a modern client never sees the proxy’s own listen; what it honours is not polled', async () => {
    const s = await setup();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    s.relay.input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } })}\n`,
    );
    await until('tools/list answer', () => s.lines.find((l) => l.id === 1));
    const own = await until('the own listen', () =>
      s.lists.received.find((l) => l.method === 'subscriptions/listen'),
    );
    expect(own.params).toEqual({
      notifications: { toolsListChanged: true, resourcesListChanged: true },
      _meta: meta,
    });
    await s.ownLists(2);
    s.lists.push({
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': own.id } },
    });
    await s.ownLists(3);
    const before = s.lists.received.length;
    s.scheduler.tick();
    s.relay.input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { _meta: meta } })}\n`,
    );
    await until('ping', () => s.lines.find((l) => l.id === 2));
    // The ack honoured both lists: the tick asked nothing.
    expect(s.lists.received.slice(before).map((l) => l.method)).toEqual(['ping']);
    expect(s.lines.map((l) => l.id ?? l.method)).toEqual([1, 2]);
  });
});
