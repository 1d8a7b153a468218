/**
 * Connects the official SDK client to a spawned `moor` process in one of the
 * three negotiation modes a real client uses.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MOOR_BIN } from './paths.js';

export type EraMode = 'legacy' | 'auto' | 'modern';
export const ERA_MODES: readonly EraMode[] = ['legacy', 'auto', 'modern'];

export async function connectStdio(
  mode: EraMode,
  args: readonly string[],
  env?: Record<string, string>,
): Promise<Client> {
  const client = new Client(
    { name: 'moor-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : mode } },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MOOR_BIN, ...args],
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...env },
  });
  await client.connect(transport);
  return client;
}

/**
 * Connects the official SDK client to a daemon's HTTP endpoint; `headers`
 * go on every request (the bearer token, Moor-Session, Moor-Workspace).
 */
export async function connectHttp(
  mode: EraMode,
  url: string,
  headers: Record<string, string>,
): Promise<Client> {
  const client = new Client(
    { name: 'moor-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : mode } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
