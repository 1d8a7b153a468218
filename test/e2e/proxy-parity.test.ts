/**
 * `moor stdio` through the daemon answers exactly what `moor stdio --direct`
 * answers: two proxies (one legacy client, one modern) on one daemon, with the
 * official SDK client, and the raw wire compared byte for byte.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, control, makeState, type TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { MODERN_META, RawClient } from '../helpers/raw-client.js';
import { connectStdio } from '../helpers/sdk-client.js';

const CALLS: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }> = [
  { name: 'search_decisions', arguments: { query: 'storage' } },
  { name: 'search_decisions', arguments: { query: 'sqlite', status: 'accepted' } },
  { name: 'get_decision', arguments: { ref: '3' } },
  { name: 'get_decision', arguments: { ref: 'ADR-0002' } },
  { name: 'get_decision', arguments: { ref: 'no-such-decision' } },
  { name: 'get_decision_context', arguments: { files: ['src/db/pool.ts', '../etc/passwd'] } },
  { name: 'list_superseded', arguments: {} },
  { name: 'search_decisions', arguments: { query: 'x', limit: 500 } },
];

let state: TestState;
const proxied = new Map<string, Client>();
const direct = new Map<string, Client>();

beforeAll(async () => {
  state = makeState();
  const env = { MOOR_STATE_DIR: state.dir };
  // The first proxy starts the daemon; the second joins it.
  proxied.set('legacy', await connectStdio('legacy', ['stdio', '--workspace', E2E_WORKSPACE], env));
  proxied.set('modern', await connectStdio('modern', ['stdio', '--workspace', E2E_WORKSPACE], env));
  direct.set('legacy', await connectStdio('legacy', ['stdio', '--direct', '--workspace', E2E_WORKSPACE]));
  direct.set('modern', await connectStdio('modern', ['stdio', '--direct', '--workspace', E2E_WORKSPACE]));
});

afterAll(async () => {
  for (const c of [...proxied.values(), ...direct.values()]) await c.close();
  await cleanupAll();
});

function get(map: Map<string, Client>, mode: string): Client {
  const c = map.get(mode);
  if (!c) throw new Error(mode);
  return c;
}

describe('two proxies on one daemon, both eras', () => {
  it('negotiate the same eras as direct', () => {
    expect(get(proxied, 'legacy').getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(get(proxied, 'modern').getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(get(proxied, 'legacy').getInstructions()).toBe(get(direct, 'legacy').getInstructions());
  });

  it('share one daemon and one room for the repository', async () => {
    const status = await control(state, 'status');
    expect(status?.status?.connectedClients).toBe(2);
    expect(status?.status?.workspaces).toEqual([{ root: E2E_WORKSPACE, connections: 2 }]);
  });

  it('tools/list, resources and tool payloads are identical to --direct', async () => {
    for (const mode of ['legacy', 'modern']) {
      const [p, d] = [get(proxied, mode), get(direct, mode)];
      expect(JSON.stringify(await p.listTools())).toBe(JSON.stringify(await d.listTools()));
      expect(JSON.stringify(await p.listResources())).toBe(JSON.stringify(await d.listResources()));
      expect(JSON.stringify(await p.listResourceTemplates())).toBe(
        JSON.stringify(await d.listResourceTemplates()),
      );
      for (const call of CALLS) {
        const [a, b] = await Promise.all([p.callTool(call), d.callTool(call)]);
        expect(JSON.stringify(a), `${mode} ${call.name}`).toBe(JSON.stringify(b));
      }
      await expect(p.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
    }
  });
});

describe('the raw wire through the proxy', () => {
  const LEGACY = [
    {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
    { method: 'tools/list' },
    { method: 'tools/call', params: { name: 'get_decision', arguments: { ref: '2' } } },
    { method: 'tools/call', params: { name: 'nope', arguments: {} } },
    { method: 'resources/read', params: { uri: 'decision://missing' } },
    { method: 'no/such/method' },
  ];
  const MODERN = [
    { method: 'server/discover' },
    { method: 'tools/list' },
    { method: 'tools/call', params: { name: 'search_decisions', arguments: { query: 'cache' } } },
    { method: 'resources/list' },
  ];

  async function transcript(args: string[], requests: typeof LEGACY, modern: boolean): Promise<string[]> {
    const client = new RawClient(process.execPath, [MOOR_BIN, ...args], { MOOR_STATE_DIR: state.dir });
    const out: string[] = [];
    const lines: string[] = [];
    client.child.stdout.on('data', (c) => lines.push(String(c)));
    for (const r of requests) {
      const params = modern ? { ...(r.params ?? {}), _meta: MODERN_META } : r.params;
      const answer = await client.request(r.method, params);
      out.push(JSON.stringify(answer));
      if (r.method === 'initialize') client.notify('notifications/initialized');
    }
    await client.close();
    // Bytes, not just values: the relay must not re-encode.
    return [...out, lines.join('')];
  }

  /**
   * The daemon serves durable tasks and says so in its capabilities (the
   * `io.modelcontextprotocol/tasks` extension); direct stdio serves none.
   * That one key is the only difference allowed.
   */
  const withoutTasksExtension = (text: string) => text.replaceAll(',"io.modelcontextprotocol/tasks":{}', '');

  it('is byte-identical to --direct on both eras (but for the daemon-only tasks capability)', async () => {
    for (const [requests, modern] of [
      [LEGACY, false],
      [MODERN, true],
    ] as const) {
      const viaProxy = await transcript(['stdio', '--workspace', E2E_WORKSPACE], requests, modern);
      const viaDirect = await transcript(
        ['stdio', '--direct', '--workspace', E2E_WORKSPACE],
        requests,
        modern,
      );
      expect(viaProxy.map(withoutTasksExtension)).toEqual(viaDirect.map(withoutTasksExtension));
    }
  });
});
