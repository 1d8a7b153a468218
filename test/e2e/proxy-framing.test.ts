/**
 * Framing through the proxy and the daemon socket: a malformed line gets the
 * same -32700 as on direct stdio, and the connection stays usable.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';

const state = mkdtempSync(path.join(os.tmpdir(), 'moor-framing-'));
const env = { MOOR_STATE_DIR: state };

afterAll(() => {
  spawnSync(process.execPath, [MOOR_BIN, 'daemon', 'stop'], { env: { ...process.env, ...env } });
});

describe('moor stdio (proxy) framing', () => {
  it('answers a malformed line with -32700 and keeps serving', async () => {
    const client = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--workspace', E2E_WORKSPACE], env);
    try {
      const first = await client.modern('tools/list');
      expect(first.result?.tools).toEqual(expect.any(Array));
      client.sendLine('{"jsonrpc":"2.0","id":9,"method":');
      const error = await client.nextUnmatched(10_000);
      expect(error).toMatchObject({ id: null, error: { code: -32700 } });
      client.sendLine('{"id":10,"not":"json-rpc"}');
      expect(await client.nextUnmatched(10_000)).toMatchObject({ id: 10, error: { code: -32600 } });
      const again = await client.modern('tools/list');
      expect(again.result?.tools).toEqual(first.result?.tools);
    } finally {
      await client.close();
    }
  });
});
