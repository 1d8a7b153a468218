/**
 * With several decision logs, draft_decision numbers and writes a record in
 * the log it is told (and asks for one when it is not), and check_decisions
 * judges each record's links against its own log's folder.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostContext, ToolContext } from '../../../../src/host/pack.js';
import { type DecisionsState, openDecisions } from '../../../../src/packs/decisions/state.js';
import { checkDecisions } from '../../../../src/packs/decisions/tools/check-decisions.js';
import { draftDecision } from '../../../../src/packs/decisions/tools/draft-decision.js';
import { REPO_ROOT } from '../../../helpers/paths.js';
import { tempDir } from '../corpus/helpers.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function monorepoCopy(): { root: string; ctx: ToolContext<DecisionsState> } {
  const { dir, cleanup } = tempDir('moor-logs-draft-');
  const root = path.join(dir, 'repo');
  cpSync(path.join(REPO_ROOT, 'test/fixtures/corpora/monorepo'), root, { recursive: true });
  const state = openDecisions(root, { watch: false });
  cleanups.push(() => {
    if (state.kind === 'loaded') state.corpus.close();
    cleanup();
  });
  const ctx: ToolContext<DecisionsState> = {
    state,
    workspaceRoot: root,
    signal: new AbortController().signal,
    sessionKey: undefined,
    host: {} as HostContext,
    progress: async () => {},
    requestInput: async () => ({ draft: { action: 'accept', content: { confirm: true } } }) as never,
  };
  return { root, ctx };
}

describe('writing and checking with several decision logs', () => {
  it('draft_decision writes the next number of the named log into its folder', async () => {
    const { root, ctx } = monorepoCopy();
    const out = await draftDecision.handler(
      draftDecision.input.parse({ title: 'Bill in euros', context: 'Prices vary.', log: 'billing' }),
      ctx,
    );
    expect('structured' in out && out.structured).toMatchObject({
      created: true,
      id: 'billing:0003',
      path: 'packages/billing/docs/adr/0003-bill-in-euros.md',
    });
    expect(existsSync(path.join(root, 'packages/billing/docs/adr/0003-bill-in-euros.md'))).toBe(true);
  });

  it('draft_decision without log asks for one, naming the logs', async () => {
    const { ctx } = monorepoCopy();
    await expect(
      draftDecision.handler(draftDecision.input.parse({ title: 'Bill in euros', context: 'x' }), ctx),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message:
        'This repository keeps several decision logs (billing, auth): name the one for the new record with log.',
    });
  });

  it('check_decisions reports a link to a missing Markdown file outside the record’s own log', async () => {
    const ws: Workspace = workspace({
      'packages/billing/docs/adr/0001-a.md': madr(
        'Bill monthly',
        { status: 'accepted' },
        'See [the notes](../notes.md) and [the other record](0002-b.md).',
      ),
      'services/auth/decisions/0001-b.md': madr('Opaque tokens', { status: 'accepted' }),
    });
    cleanups.push(() => ws.close());
    const out = await call(checkDecisions, ws, {});
    const findings = out.structured.findings as Array<{ kind: string; path: string; message: string }>;
    expect(findings.filter((f) => f.kind === 'broken-link')).toEqual([
      expect.objectContaining({
        path: 'packages/billing/docs/adr/0001-a.md',
        message: 'billing:0001 links to ../notes.md, which is not in the repository',
      }),
    ]);
  });
});
