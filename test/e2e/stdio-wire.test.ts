/**
 * The exact bytes on the wire of `moor stdio --direct`: cache hints, error
 * codes, a malformed line, and stdout carrying protocol only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { DECISIONS_DAEMON_TOOLS } from '../helpers/served-tools.js';

let raw: RawClient | undefined;

function start(): RawClient {
  raw = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--direct', '--workspace', E2E_WORKSPACE]);
  return raw;
}

afterEach(async () => {
  await raw?.close();
  raw = undefined;
});

describe('modern wire', () => {
  it('tools/list and server/discover are cacheable for five minutes by anyone', async () => {
    const client = start();
    const discover = await client.modern('server/discover');
    expect(discover.result).toMatchObject({ ttlMs: 300000, cacheScope: 'public', resultType: 'complete' });
    const list = await client.modern('tools/list');
    expect(list.result).toMatchObject({ ttlMs: 300000, cacheScope: 'public', resultType: 'complete' });
  });

  it('corpus-derived results are never cached', async () => {
    const client = start();
    const list = await client.modern('resources/list');
    expect(list.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    const read = await client.modern('resources/read', { uri: 'decision:///0003-use-sqlite-for-storage.md' });
    expect(read.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('an unknown resource is -32602 with data.uri', async () => {
    const client = start();
    const read = await client.modern('resources/read', { uri: 'decision:///missing.md' });
    expect(read.error).toMatchObject({ code: -32602, data: { uri: 'decision:///missing.md' } });
  });

  it('an unknown tool is -32602 naming the tool', async () => {
    const client = start();
    const call = await client.modern('tools/call', { name: 'nope', arguments: {} });
    expect(call.error).toMatchObject({ code: -32602, data: { tool: 'nope' } });
    expect(call.error?.message).toMatch(/Unknown tool: nope/);
  });
});

describe('framing', () => {
  it('a malformed JSON line is -32700 and the connection stays usable', async () => {
    const client = start();
    client.sendLine('{"jsonrpc":"2.0","id":1,"method":');
    const error = await client.nextUnmatched();
    expect(error.error?.code).toBe(-32700);
    const list = await client.modern('tools/list');
    expect(list.result?.tools).toHaveLength(8);
  });

  it('JSON that is not JSON-RPC is -32600, echoing the id when there is one', async () => {
    const client = start();
    client.sendLine('{"id":7,"hello":"world"}');
    const error = await client.nextUnmatched();
    expect(error).toMatchObject({ id: 7, error: { code: -32600 } });
    const list = await client.modern('tools/list');
    expect(list.result?.tools).toHaveLength(8);
  });

  it('legacy and modern requests on one process each get their own era', async () => {
    const client = start();
    const init = await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    expect(init.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'moor' } });
    client.notify('notifications/initialized');
    const list = await client.request('tools/list');
    expect(list.result).not.toHaveProperty('ttlMs');
    expect((list.result?.tools as Array<{ name: string }> | undefined)?.map((t) => t.name)).toEqual(
      DECISIONS_DAEMON_TOOLS,
    );
  });

  it('stdin EOF ends the process with exit 0 and nothing but protocol on stdout', async () => {
    const client = start();
    await client.modern('tools/list');
    expect(await client.close()).toBe(0);
    raw = undefined;
  });
});
