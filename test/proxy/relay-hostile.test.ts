/**
 * Frames the relay must refuse itself, before any daemon: an id that is an
 * array or object (however deep), a cancellation of one, and a line over
 * MAX_LINE_BYTES. Each is answered -32600 (or dropped, for a notification);
 * the relay never throws, and the next request is still relayed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../src/protocol/json-shape.js';
import { statePaths } from '../../src/protocol/state-dir.js';
import { createTestRelay } from './relay-harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function relayWithoutDaemon() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-relay-hostile-'));
  dirs.push(dir);
  let spawns = 0;
  const test = createTestRelay({
    paths: statePaths(dir),
    workspace: dir,
    sessionKey: 'moor-test-hostile-key',
    // No daemon ever comes: whatever is answered here, the relay answered itself.
    spawn: () => {
      spawns += 1;
      return undefined;
    },
    startWaitMs: 60_000,
  });
  return { ...test, spawns: () => spawns };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

describe('Relay: hostile frames', () => {
  it('answers an array or object id -32600 with id null, and drops a cancellation of one', async () => {
    const { relay, input, lines } = relayWithoutDaemon();
    relay.start();
    const deep = (n: number) => `${'['.repeat(n)}0${']'.repeat(n)}`;
    input.write(`{"jsonrpc":"2.0","id":${deep(5000)},"method":"ping"}\n`);
    input.write(
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deep(6000)}}}\n`,
    );
    input.write('{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}\n');
    input.write('{"jsonrpc":"2.0","id":[[1]],"result":{}}\n');
    await until(() => lines.length === 3);
    expect(lines).toEqual(
      Array(3).fill({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: a request id must be a string or a number' },
      }),
    );
    expect(relay.connected).toBe(false);
    input.end();
  });

  it('answers a line over the limit -32600 with the id from its head, and keeps reading', async () => {
    const { relay, input, lines } = relayWithoutDaemon();
    relay.start();
    input.write('{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"q":"');
    const piece = 'x'.repeat(1024 * 1024);
    for (let sent = 0; sent <= MAX_LINE_BYTES; sent += piece.length) input.write(piece);
    input.write('"}}\n{"jsonrpc":"2.0","id":[],"method":"ping"}\n');
    await until(() => lines.length === 2);
    expect(lines[0]).toEqual({
      jsonrpc: '2.0',
      id: 'huge',
      error: { code: -32600, message: expect.stringContaining(`exceeded ${MAX_LINE_BYTES} bytes`) },
    });
    // The line after the oversized one was read (and refused on its own merits).
    expect(lines[1]).toMatchObject({ id: null, error: { code: -32600 } });
    input.end();
  });
});
