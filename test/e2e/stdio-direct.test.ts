/**
 * The built `moor stdio --direct`, driven by the official SDK client in every
 * negotiation mode: tools, resources, cache hints, discover, and the rule that
 * a payload never depends on the era.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { connectStdio, ERA_MODES, type EraMode } from '../helpers/sdk-client.js';
import { DECISIONS_DAEMON_TOOLS } from '../helpers/served-tools.js';

const ARGS = ['stdio', '--direct', '--workspace', E2E_WORKSPACE];

/** One call per tool, with arguments that exercise its interesting paths. */
const CALLS: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }> = [
  { name: 'search_decisions', arguments: { query: 'storage' } },
  { name: 'search_decisions', arguments: { query: 'sqlite', status: 'accepted' } },
  { name: 'search_decisions', arguments: { query: 'storage', limit: 1 } },
  { name: 'get_decision', arguments: { ref: '3' } },
  { name: 'get_decision', arguments: { ref: 'ADR-0002' } },
  {
    name: 'get_decision_context',
    arguments: { files: ['src/db/pool.ts', 'src/api/cache/lru.ts', '../etc/passwd'] },
  },
  { name: 'list_superseded', arguments: {} },
];

const clients = new Map<EraMode, Client>();

beforeAll(async () => {
  for (const mode of ERA_MODES) clients.set(mode, await connectStdio(mode, ARGS));
});

afterAll(async () => {
  for (const client of clients.values()) await client.close();
});

function client(mode: EraMode): Client {
  const c = clients.get(mode);
  if (!c) throw new Error(`no ${mode} client`);
  return c;
}

describe('era negotiation', () => {
  it('legacy mode negotiates 2025-11-25, auto and modern negotiate 2026-07-28', () => {
    expect(client('legacy').getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(client('auto').getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client('modern').getNegotiatedProtocolVersion()).toBe('2026-07-28');
  });

  it('server/discover carries instructions, serverInfo, capabilities and a public cache hint', async () => {
    const discover = await client('modern').discover();
    expect(discover.supportedVersions).toEqual(['2026-07-28']);
    expect(discover.instructions).toMatch(/get_decision_context/);
    expect(discover.ttlMs).toBe(300_000);
    expect(discover.cacheScope).toBe('public');
    expect(discover.capabilities.tools).toEqual({ listChanged: true });
    expect(discover._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'moor' });
  });

  it('the legacy handshake carries the same instructions', () => {
    expect(client('legacy').getInstructions()).toMatch(/get_decision_context/);
    expect(client('legacy').getServerVersion()?.name).toBe('moor');
  });
});

describe('tools/list', () => {
  it('lists the five decisions tools and the three workspace tools in lexicographic order on every era', async () => {
    for (const mode of ERA_MODES) {
      const { tools } = await client(mode).listTools();
      expect(tools.map((t) => t.name)).toEqual(DECISIONS_DAEMON_TOOLS);
    }
  });

  it('is identical across eras, with read-only closed-world annotations and output schemas', async () => {
    const lists = await Promise.all(ERA_MODES.map(async (mode) => (await client(mode).listTools()).tools));
    expect(JSON.stringify(lists[1])).toBe(JSON.stringify(lists[0]));
    expect(JSON.stringify(lists[2])).toBe(JSON.stringify(lists[0]));
    const sessionTools = new Set(['connect_workspace', 'disconnect_workspace', 'list_workspaces']);
    for (const tool of lists[0] ?? []) {
      expect(tool.outputSchema?.type).toBe('object');
      if (sessionTools.has(tool.name)) {
        expect(tool.annotations).toMatchObject({ openWorldHint: false });
        expect(tool.inputSchema.properties ?? {}).not.toHaveProperty('workspace');
        continue;
      }
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      // Every decisions tool takes the host's optional workspace argument.
      expect(tool.inputSchema.properties).toHaveProperty(
        'workspace',
        expect.objectContaining({ type: 'string' }),
      );
      expect(tool.inputSchema.required ?? []).not.toContain('workspace');
    }
  });
});

describe('tools/call', () => {
  it('returns byte-identical content and structuredContent on every era', async () => {
    for (const call of CALLS) {
      const payloads = await Promise.all(
        ERA_MODES.map(async (mode) => {
          const result = await client(mode).callTool(call);
          return JSON.stringify({
            content: result.content,
            structuredContent: result.structuredContent,
            isError: result.isError,
          });
        }),
      );
      expect(payloads[1], `${call.name} auto vs legacy`).toBe(payloads[0]);
      expect(payloads[2], `${call.name} modern vs legacy`).toBe(payloads[0]);
      expect(JSON.parse(payloads[0] ?? '{}').isError, call.name).toBeUndefined();
    }
  });

  it('search ranks the title match first and shows the match in the snippet', async () => {
    const result = await client('modern').callTool({
      name: 'search_decisions',
      arguments: { query: 'sqlite' },
    });
    const hits = (result.structuredContent as { hits: Array<{ id: string; snippet: string }> }).hits;
    expect(hits[0]?.id).toBe('0003');
    expect(hits[0]?.snippet.toLowerCase()).toContain('sqlite');
  });

  it('search pages with a cursor bound to the query', async () => {
    const first = await client('modern').callTool({
      name: 'search_decisions',
      arguments: { query: 'storage', limit: 1 },
    });
    const page1 = first.structuredContent as {
      total: number;
      hits: Array<{ id: string }>;
      nextCursor: string | null;
    };
    expect(page1.total).toBeGreaterThan(1);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const second = await client('legacy').callTool({
      name: 'search_decisions',
      arguments: { query: 'storage', limit: 1, cursor: page1.nextCursor },
    });
    const page2 = second.structuredContent as { hits: Array<{ id: string }> };
    expect(page2.hits[0]?.id).not.toBe(page1.hits[0]?.id);
    const wrong = await client('legacy').callTool({
      name: 'search_decisions',
      arguments: { query: 'sqlite', limit: 1, cursor: page1.nextCursor },
    });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toMatch(/different query/);
  });

  it('get_decision reports supersession from both sides', async () => {
    const result = await client('modern').callTool({ name: 'get_decision', arguments: { ref: '0003' } });
    expect(result.structuredContent).toMatchObject({
      id: '0003',
      status: 'accepted',
      supersedes: ['0002'],
      supersededBy: [],
      governs: ['src/db/**', '!src/db/migrations/**'],
      format: 'madr',
    });
  });

  it('get_decision_context hands a superseded decision over to its successor and refuses escapes', async () => {
    const result = await client('modern').callTool({
      name: 'get_decision_context',
      arguments: {
        files: ['src/db/pool.ts', 'src/db/migrations/001.sql', 'src/api/cache/lru.ts', '../outside.txt'],
      },
    });
    const files = (result.structuredContent as { files: Array<Record<string, unknown>> }).files;
    expect(files[0]).toMatchObject({
      file: 'src/db/pool.ts',
      refused: null,
      governing: [{ id: '0003', replaces: ['0002'] }],
    });
    // 0002 covered migrations, but it is superseded, and its successor 0003 carves them out.
    expect(files[1]).toMatchObject({ file: 'src/db/migrations/001.sql', governing: [], proposed: [] });
    expect(files[2]).toMatchObject({ governing: [{ id: '0004' }], proposed: [{ id: '0005' }] });
    expect(files[3]).toMatchObject({ file: '../outside.txt', governing: [], proposed: [] });
    expect(files[3]?.refused).toEqual(expect.any(String));
  });
});

describe('bad input', () => {
  it('an unknown tool is -32602 on every era', async () => {
    for (const mode of ERA_MODES) {
      await expect(client(mode).callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
    }
  });

  it('schema-invalid arguments give an isError result naming the field', async () => {
    const result = await client('modern').callTool({
      name: 'search_decisions',
      arguments: { query: 'x', limit: 500 },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/limit/);
  });

  it('a query over 1 KB and more than 200 files are refused with isError', async () => {
    const long = await client('legacy').callTool({
      name: 'search_decisions',
      arguments: { query: 'é'.repeat(513) },
    });
    expect(long.isError).toBe(true);
    expect(JSON.stringify(long.content)).toMatch(/query: must be at most 1024 bytes/);
    const many = await client('legacy').callTool({
      name: 'get_decision_context',
      arguments: { files: Array.from({ length: 201 }, (_, i) => `f${i}.ts`) },
    });
    expect(many.isError).toBe(true);
    expect(JSON.stringify(many.content)).toMatch(/files: at most 200 files/);
  });

  it('an unknown decision suggests the closest references', async () => {
    const result = await client('modern').callTool({
      name: 'get_decision',
      arguments: { ref: 'use-sqlite-for-storag' },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/Closest: 0003/);
  });

  it('a ref that escapes the workspace is never read', async () => {
    const result = await client('modern').callTool({
      name: 'get_decision',
      arguments: { ref: '../../../../etc/passwd' },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).not.toMatch(/root:/);
  });
});

describe('resources', () => {
  it('lists every decision as text/markdown and reads one', async () => {
    const { resources } = await client('modern').listResources();
    expect(resources).toHaveLength(5);
    expect(resources[0]).toMatchObject({
      uri: 'decision:///0001-record-architecture-decisions.md',
      mimeType: 'text/markdown',
    });
    const read = await client('legacy').readResource({ uri: 'decision:///0003-use-sqlite-for-storage.md' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((read.contents[0] as { text: string }).text).toMatch(/SQLite in WAL mode/);
  });

  it('reading an unknown uri is -32602 with data.uri on both eras', async () => {
    for (const mode of ['legacy', 'modern'] as const) {
      await expect(client(mode).readResource({ uri: 'decision:///9999-nope.md' })).rejects.toMatchObject({
        code: -32602,
        data: { uri: 'decision:///9999-nope.md' },
      });
    }
  });
});
