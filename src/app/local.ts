/**
 * One-shot, in-process answers for the CLI: the same tool handlers and
 * renderings the MCP server uses, without a server.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Workspace } from '../host/binding.js';
import { Catalog } from '../host/catalog.js';
import { erasePack } from '../host/pack.js';
import { callTool } from '../host/tool-call.js';
import { createDecisionsPack } from '../packs/decisions/pack.js';
import { SERVER_PREAMBLE } from './identity.js';
import type { ResolvedWorkspace } from './options.js';

export async function callToolLocally(
  resolved: ResolvedWorkspace,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const pack = createDecisionsPack({ decisionsDir: resolved.decisionsDir, watch: false });
  const workspace = new Workspace(resolved.root);
  try {
    const catalog = new Catalog([erasePack(pack)], SERVER_PREAMBLE);
    return await callTool(
      catalog,
      workspace.bind(undefined),
      { name, arguments: args },
      {
        signal: new AbortController().signal,
        progress: async () => {},
        onInternalError: (error) => {
          throw error;
        },
      },
    );
  } finally {
    workspace.close();
  }
}
