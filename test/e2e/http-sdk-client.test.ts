/**
 * The HTTP endpoint with the official SDK client over Streamable HTTP, in
 * the three negotiation modes a real client uses (legacy, auto, pinned
 * 2026-07-28): lists, calls, reads, discover, progress over the POST's SSE
 * stream, cancellation by closing the request, and the moor headers.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { ERA_MODES, type EraMode } from '../helpers/sdk-client.js';
import { until } from '../helpers/until.js';
import { fixture, probe, type Started, start } from '../http/helpers.js';

const fx = fixture();
let server: Started;
const open: Client[] = [];

async function connect(mode: EraMode, headers?: Record<string, string>): Promise<Client> {
  const client = new Client(
    { name: 'moor-http-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : mode } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(server.url),
      headers ? { requestInit: { headers } } : undefined,
    ),
  );
  open.push(client);
  return client;
}

beforeAll(async () => {
  server = await start(fx);
});

afterEach(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => {});
  probe.reset();
});

afterAll(async () => {
  await server.endpoint.close(500);
  fx.close();
});

describe.each(ERA_MODES.map((mode) => [mode] as const))('SDK client, %s mode', (mode) => {
  it('negotiates its era and lists the tools', async () => {
    const client = await connect(mode);
    expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'legacy' ? '2025-11-25' : '2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'boom',
      'check_decisions',
      'count',
      'echo',
      'get_decision',
      'get_decision_context',
      'list_superseded',
      'refuse',
      'search_decisions',
      'unicode',
      'wait',
    ]);
  });

  it('calls tools and reads resources', async () => {
    const client = await connect(mode);
    const decision = await client.callTool({ name: 'get_decision', arguments: { ref: '3' } });
    expect(decision.isError).toBeFalsy();
    expect(JSON.stringify(decision.structuredContent)).toContain('0003');
    const unknown = await client.callTool({ name: 'get_decision', arguments: { ref: '999' } });
    expect(unknown.isError).toBe(true);
    const read = await client.readResource({ uri: 'decision:///0003-use-sqlite-for-storage.md' });
    expect(read.contents[0]?.uri).toBe('decision:///0003-use-sqlite-for-storage.md');
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
    await expect(client.readResource({ uri: 'decision:///missing.md' })).rejects.toThrow(
      /Resource not found/,
    );
  });

  it('reports progress on the POST’s own SSE stream', async () => {
    const client = await connect(mode);
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'count', arguments: { n: 3 } },
      { onprogress: (progress) => seen.push(progress.progress) },
    );
    expect(result.structuredContent).toEqual({ counted: 3 });
    expect(seen).toEqual([1, 2, 3]);
  });

  it.each([
    ['without progress (lean path)', false],
    ['with progress (SDK path)', true],
  ])('closing the request aborts the tool’s work, %s', async (_label, withProgress) => {
    // A 2025-era SDK client cancels by posting notifications/cancelled, which reaches only
    // requests of the same Moor-Session (session-less ones only from their own connection).
    const tag = `${mode}-${withProgress}`;
    const client = await connect(mode, { 'Moor-Session': `moor-cancel-${tag}` });
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'wait', arguments: { tag, ms: 20_000 } },
      { signal: controller.signal, ...(withProgress ? { onprogress: () => {} } : {}) },
    );
    call.catch(() => {});
    await until(() => probe.started.has(tag));
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => probe.aborted.has(tag));
  });

  it('passes Moor-Session and Moor-Workspace to the binding', async () => {
    const client = await connect(mode, {
      'Moor-Session': 'moor-test-session-1',
      'Moor-Workspace': E2E_WORKSPACE,
    });
    await client.callTool({ name: 'echo', arguments: { text: 'who' } });
    expect(probe.sessionKeys).toEqual(['moor-test-session-1']);
    expect(probe.workspaces).toEqual([E2E_WORKSPACE]);
  });
});

describe('payloads do not depend on the era', () => {
  it('every mode gets the same tool results and resource contents', async () => {
    const payloads = [];
    for (const mode of ERA_MODES) {
      const client = await connect(mode);
      payloads.push({
        decision: await client.callTool({ name: 'get_decision', arguments: { ref: 'ADR-0002' } }),
        search: await client.callTool({ name: 'search_decisions', arguments: { query: 'storage' } }),
        context: await client.callTool({
          name: 'get_decision_context',
          arguments: { files: ['src/db/pool.ts'] },
        }),
        read: await client.readResource({ uri: 'decision:///0003-use-sqlite-for-storage.md' }),
      });
    }
    const strip = (p: (typeof payloads)[number]) =>
      JSON.parse(
        JSON.stringify(p, (key, value) =>
          key === 'resultType' || key === '_meta' || key === 'ttlMs' || key === 'cacheScope'
            ? undefined
            : value,
        ),
      );
    expect(strip(payloads[1] as (typeof payloads)[number])).toEqual(
      strip(payloads[0] as (typeof payloads)[number]),
    );
    expect(strip(payloads[2] as (typeof payloads)[number])).toEqual(
      strip(payloads[0] as (typeof payloads)[number]),
    );
  });

  it('server/discover carries instructions, identity and a public cache hint', async () => {
    const client = await connect('modern');
    const discover = await client.discover();
    expect(discover.supportedVersions).toEqual(['2026-07-28']);
    expect(discover.instructions).toMatch(/get_decision_context/);
    expect(discover.ttlMs).toBe(300_000);
    expect(discover.cacheScope).toBe('public');
    expect(discover._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'moor' });
  });
});
