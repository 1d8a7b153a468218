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
import { MAX_FILES } from '../packs/decisions/tools/context.js';
import { type ChangeSet, changedFiles } from './changed-files.js';
import { SERVER_PREAMBLE } from './identity.js';
import type { ResolvedWorkspace } from './options.js';

type LocalCall = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

/** Runs `use` with a caller for the tools over one loaded workspace, closed afterwards. */
async function withLocalTools<T>(
  resolved: ResolvedWorkspace,
  use: (call: LocalCall) => Promise<T>,
): Promise<T> {
  const pack = createDecisionsPack({ decisionsDir: resolved.decisionsDir, watch: false });
  const workspace = new Workspace(resolved.root);
  try {
    const catalog = new Catalog([erasePack(pack)], SERVER_PREAMBLE);
    const binding = workspace.bind(undefined);
    return await use((name, args) =>
      callTool(
        catalog,
        binding,
        { name, arguments: args },
        {
          signal: new AbortController().signal,
          progress: async () => {},
          onInternalError: (error) => {
            throw error;
          },
        },
      ),
    );
  } finally {
    workspace.close();
  }
}

export function callToolLocally(
  resolved: ResolvedWorkspace,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return withLocalTools(resolved, (call) => call(name, args));
}

/**
 * get_decision_context for the files git reports changed: one answer however
 * many files (the tool takes at most MAX_FILES per call), and a plain answer
 * when nothing changed.
 */
export async function decisionContextForChanges(
  resolved: ResolvedWorkspace,
  change: ChangeSet,
): Promise<CallToolResult> {
  const files = await changedFiles(resolved.root, change);
  const what = change.kind === 'staged' ? 'staged' : `changed since ${change.ref}`;
  if (files.length === 0)
    return { content: [{ type: 'text', text: `No files ${what}.` }], structuredContent: { files: [] } };
  return withLocalTools(resolved, async (call) => {
    const texts: string[] = [];
    const entries: unknown[] = [];
    for (let i = 0; i < files.length; i += MAX_FILES) {
      const result = await call('get_decision_context', { files: files.slice(i, i + MAX_FILES) });
      if (result.isError) return result;
      for (const block of result.content) if (block.type === 'text') texts.push(block.text);
      entries.push(...((result.structuredContent as { files?: unknown[] } | undefined)?.files ?? []));
    }
    return { content: [{ type: 'text', text: texts.join('\n') }], structuredContent: { files: entries } };
  });
}
