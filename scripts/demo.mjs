#!/usr/bin/env node
// The README's "see it work" command: starts `moor stdio --direct` on this
// repository's own docs/decisions, connects the official MCP client once per
// protocol era, and prints what an agent would get back.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const bin = new URL('../dist/cli/main.js', import.meta.url).pathname;
const root = new URL('..', import.meta.url).pathname;

for (const [label, mode] of [
  ['2025-11-25 (initialize)', 'legacy'],
  ['2026-07-28 (stateless)', { pin: '2026-07-28' }],
]) {
  const client = new Client({ name: 'moor-demo', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'stdio', '--direct', '--workspace', root],
      stderr: 'inherit',
    }),
  );
  console.log(`\n=== era ${label}: negotiated ${client.getNegotiatedProtocolVersion()}`);
  const { tools } = await client.listTools();
  console.log(`tools: ${tools.map((t) => t.name).join(', ')}`);
  const calls = [
    { name: 'search_decisions', arguments: { query: 'search index', limit: 3 } },
    { name: 'get_decision_context', arguments: { files: ['src/host/catalog.ts', 'src/cli/main.ts'] } },
    { name: 'list_superseded', arguments: {} },
  ];
  for (const call of calls) {
    const result = await client.callTool(call);
    console.log(`\n> ${call.name} ${JSON.stringify(call.arguments)}`);
    console.log(result.content.map((c) => c.text).join('\n'));
  }
  await client.close();
}
