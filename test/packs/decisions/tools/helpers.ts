/**
 * A throwaway workspace with a decision folder, and a ToolContext over it, for
 * calling the decisions tools' handlers directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../../../src/errors.js';
import type { HostContext, ToolContext, ToolDefinition } from '../../../../src/host/pack.js';
import { type DecisionsState, openDecisions } from '../../../../src/packs/decisions/state.js';
import { tempDir } from '../corpus/helpers.js';

export interface Workspace {
  readonly root: string;
  ctx(): ToolContext<DecisionsState>;
  close(): void;
}

/** `files`: workspace-relative path → content. */
export function workspace(files: Record<string, string>): Workspace {
  const { dir, cleanup } = tempDir('moor-tools-');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  const state = openDecisions(dir, { watch: false });
  return {
    root: dir,
    ctx: () => ({
      state,
      workspaceRoot: dir,
      signal: new AbortController().signal,
      sessionKey: undefined,
      host: {} as HostContext,
      progress: async () => {},
      requestInput: async () => {
        throw new ToolError('USAGE', 'no input');
      },
    }),
    close: () => {
      if (state.kind === 'loaded') state.corpus.close();
      cleanup();
    },
  };
}

/** Runs a tool's handler; returns its structured payload and text. */
export async function call(
  tool: ToolDefinition<DecisionsState>,
  ws: Workspace,
  args: Record<string, unknown>,
): Promise<{ structured: Record<string, unknown>; text: string }> {
  const out = await tool.handler(tool.input.parse(args), ws.ctx());
  if ('raw' in out) throw new Error('expected a structured result');
  // The output schema must accept what the handler returns (structuredContent is validated by clients).
  tool.output?.parse(out.structured);
  return out as { structured: Record<string, unknown>; text: string };
}

/** A MADR record with front matter. */
export function madr(title: string, fields: Record<string, string | string[]>, body = 'Body.'): string {
  const lines = Object.entries(fields).map(([k, v]) =>
    Array.isArray(v) ? `${k}:\n${v.map((x) => `  - "${x}"`).join('\n')}` : `${k}: ${v}`,
  );
  return `---\n${lines.join('\n')}\n---\n# ${title}\n\n${body}\n`;
}
