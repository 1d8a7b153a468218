/**
 * One-shot, in-process answers for the CLI: the same tool handlers and
 * renderings the MCP server uses, without a server.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Workspace } from '../host/binding.js';
import { Catalog } from '../host/catalog.js';
import { erasePack } from '../host/pack.js';
import { callTool } from '../host/tool-call.js';
import { type CheckReport, checkCorpus, renderCheck } from '../packs/decisions/check.js';
import { createDecisionsPack } from '../packs/decisions/pack.js';
import { corpusOf } from '../packs/decisions/state.js';
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

/** The corpus check and its rendering; throws the same "no corpus" ToolError the tools give. */
export function checkLocally(resolved: ResolvedWorkspace): {
  readonly report: CheckReport;
  readonly text: string;
} {
  const pack = createDecisionsPack({ decisionsDir: resolved.decisionsDir, watch: false });
  const workspace = new Workspace(resolved.root);
  try {
    const report = checkCorpus(corpusOf(workspace.stateOf(pack)));
    return { report, text: renderCheck(report) };
  } finally {
    workspace.close();
  }
}
