/**
 * The relay against a scripted daemon on a real Unix socket: a new daemon
 * version is noted once on stderr, a legacy handshake is replayed with its
 * answer swallowed, and requests queued while the daemon was away go through.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HELLO_VERSION } from '../../src/protocol/hello.js';
import { statePaths } from '../../src/protocol/state-dir.js';
import { createTestRelay } from './relay-harness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

interface FakeDaemon {
  readonly received: string[];
  readonly sockets: Set<net.Socket>;
  close(): Promise<void>;
}

function fakeDaemon(socketPath: string, version: string): Promise<FakeDaemon> {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let helloDone = false;
    socket.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!helloDone) {
          helloDone = true;
          const incarnation = { pid: 1, startedAt: new Date().toISOString(), version };
          socket.write(`${JSON.stringify({ moor: HELLO_VERSION, ok: true, incarnation })}\n`);
          continue;
        }
        received.push(line);
        const message = JSON.parse(line) as { id?: number | string; method?: string };
        if (message.id === undefined || message.method === undefined) continue;
        const result =
          message.method === 'tools/list'
            ? { tools: [] }
            : message.method === 'initialize'
              ? { v: version }
              : {};
        socket.write(`${JSON.stringify({ result, jsonrpc: '2.0', id: message.id })}\n`);
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(socketPath, () =>
      resolve({
        received,
        sockets,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

async function until<T>(probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Relay against a scripted daemon', () => {
  it('replays the legacy handshake, swallows its answer, and notes a new daemon version once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-fake-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const paths = statePaths(dir);
    let daemon = await fakeDaemon(paths.socket, '1.0.0');
    const { relay, input, lines, warnings } = createTestRelay({
      paths,
      workspace: dir,
      sessionKey: 'moor-fake-session',
      spawn: () => undefined,
    });
    cleanups.push(() => input.end());
    relay.start();
    input.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
    );
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await until(() => lines.find((l) => l.id === 1));
    expect(lines.find((l) => l.id === 1)?.result).toEqual({ v: '1.0.0' });

    // The daemon goes away and a newer one takes its place.
    await daemon.close();
    daemon = await fakeDaemon(paths.socket, '2.0.0');
    cleanups.push(() => void daemon.close());
    input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await until(() => lines.find((l) => l.id === 2));
    // The new daemon saw the replayed initialize (with a proxy id) and initialized before the ping.
    const methods = daemon.received.map((l) => JSON.parse(l) as { id?: unknown; method?: string });
    expect(methods.map((m) => m.method)).toEqual(['initialize', 'notifications/initialized', 'ping']);
    expect(String(methods[0]?.id)).toMatch(/^moor-proxy-/);
    // The client never saw a second initialize answer.
    expect(lines.filter((l) => l.result && 'v' in l.result)).toHaveLength(1);
    expect(warnings).toEqual(['moor: the daemon is now version 2.0.0 (was 1.0.0)']);
    expect(relay.connected).toBe(true);
  });
});

describe('Relay with the restart budget spent', () => {
  it('serves the next request from a daemon another proxy started, instead of refusing it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-relay-down-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const paths = statePaths(dir);
    let spawns = 0;
    const { relay, input, lines, warnings } = createTestRelay({
      paths,
      workspace: dir,
      sessionKey: 'moor-test-down-key',
      spawn: () => {
        spawns += 1;
        return undefined;
      },
      startWaitMs: 1,
    });
    relay.start();
    input.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    while (!warnings.some((w) => /could not be started/.test(w))) await new Promise((r) => setTimeout(r, 5));
    expect(lines.find((l) => l.id === 1)?.error?.code).toBe(-32051);
    // Another proxy's daemon comes up: the budget is still spent, but it serves.
    const daemon = await fakeDaemon(paths.socket, '0.1.0');
    cleanups.push(() => void daemon.close());
    input.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    while (!lines.some((l) => l.id === 2)) await new Promise((r) => setTimeout(r, 5));
    expect(lines.find((l) => l.id === 2)).toEqual({ result: { tools: [] }, jsonrpc: '2.0', id: 2 });
    expect(spawns).toBe(5);
    input.end();
  });
});
