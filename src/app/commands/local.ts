/**
 * One-shot, in-process answers for the CLI: the same tool handlers and
 * renderings the MCP server uses, without a server. A command calls one or
 * two tools, so they are looked up in the pack directly: building the
 * catalog (every tool's wire shape and JSON Schema) and loading the SDK would
 * cost more than the answer.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MoorError } from '../../errors.js';
import { Workspace } from '../../host/call-scope.js';
import { erasePack } from '../../host/pack.js';
import { runTool } from '../../host/tool-run.js';
import type { ParsedCacheOptions } from '../../packs/decisions/corpus/load/parsed-cache.js';
import { createDecisionsPack } from '../../packs/decisions/pack.js';
import type { DecisionsState } from '../../packs/decisions/state.js';
import { MAX_FILES } from '../../packs/decisions/tools/context.js';
import { IDENTITY } from '../identity.js';
import { oneShotCacheDir } from '../one-shot-cache-dir.js';
import { type ChangeSet, changedFiles } from './changed-files.js';
import type { ResolvedWorkspace } from './options.js';

export type LocalCall = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

/**
 * Runs `use` with a caller for the tools over one loaded workspace (and the
 * pack's state, for answers the tools do not give), closed afterwards.
 */
export async function withLocalTools<T>(
  resolved: ResolvedWorkspace,
  use: (call: LocalCall, state: DecisionsState) => Promise<T>,
): Promise<T> {
  const pack = erasePack(
    createDecisionsPack({
      decisionsDir: resolved.decisionsDir,
      watch: false,
      searchIndex: 'deferred',
      parsedCache: parsedCacheOptions(),
    }),
  );
  const workspace = new Workspace(resolved.root);
  try {
    return await use((name, args) => {
      const definition = pack.tools.find((tool) => tool.name === name);
      if (!definition) throw new MoorError('UNKNOWN_TOOL', `Unknown tool: ${name}`, { tool: name });
      let controller: AbortController | undefined;
      return runTool({ pack, definition }, { sessionKey: undefined, workspace }, args, {
        // Made only for a tool that asks: Node loads its AbortController module on first use.
        get signal() {
          controller ??= new AbortController();
          return controller.signal;
        },
        progress: async () => {},
        onInternalError: (error) => {
          throw error;
        },
      });
    }, workspace.stateOf(pack) as DecisionsState);
  } finally {
    workspace.close();
  }
}

/**
 * Where one-shot runs keep their parses (oneShotCacheDir). The build is moor's
 * version and the modification time of this module's file, so a rebuilt moor
 * never reads what another build parsed.
 */
export function parsedCacheOptions(env: NodeJS.ProcessEnv = process.env): ParsedCacheOptions | undefined {
  const dir = oneShotCacheDir(env);
  if (dir === undefined) return undefined;
  try {
    const built = fs.statSync(fileURLToPath(import.meta.url)).mtimeMs;
    return { dir, build: `${IDENTITY.version}:${built}` };
  } catch {
    return undefined;
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
