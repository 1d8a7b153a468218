/**
 * draft_decision in process: the dominant format and the next free number,
 * confirmation through requestInput, never overwriting (a number taken
 * meanwhile moves the record on), and absence without --allow-writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InputRequest } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostContext, ToolContext } from '../../../src/host/pack.js';
import { parseDecision } from '../../../src/packs/decisions/corpus/read/parse.js';
import { createDecisionsPack } from '../../../src/packs/decisions/pack.js';
import { type DecisionsState, openDecisions } from '../../../src/packs/decisions/state.js';
import { draftDecision, planDraft, writeRecord } from '../../../src/packs/decisions/tools/draft-decision.js';
import { copyMixed, tempDir } from './corpus/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function ctxFor(root: string, answer: (requests: Record<string, InputRequest>) => Record<string, unknown>) {
  const state = openDecisions(root, { watch: false });
  cleanups.push(() => {
    if (state.kind === 'loaded') state.corpus.close();
  });
  const asked: Array<Record<string, InputRequest>> = [];
  const ctx: ToolContext<DecisionsState> = {
    state,
    workspaceRoot: root,
    signal: new AbortController().signal,
    sessionKey: undefined,
    host: {} as HostContext,
    progress: async () => {},
    requestInput: async (requests) => {
      asked.push({ ...requests });
      return answer({ ...requests }) as never;
    },
  };
  return { ctx, asked, state };
}

function nygardRepo(): string {
  const { dir, cleanup } = tempDir('moor-draft-');
  cleanups.push(cleanup);
  const folder = path.join(dir, 'doc/adr');
  fs.mkdirSync(folder, { recursive: true });
  for (const [n, t] of [
    [1, 'Record architecture decisions'],
    [2, 'Use Go'],
    [7, 'Use gRPC'],
  ] as const) {
    const id = String(n).padStart(3, '0');
    fs.writeFileSync(
      path.join(folder, `${id}-${t.toLowerCase().replace(/ /g, '-')}.md`),
      `# ${n}. ${t}\n\nDate: 2026-01-0${n > 9 ? 1 : n}\n\n## Status\n\nAccepted\n\n## Context\n\nx\n`,
    );
  }
  return dir;
}

describe('draft_decision', () => {
  it('writes in the dominant format with the next number, padded like the others, after confirmation', async () => {
    const root = nygardRepo();
    const { ctx, asked } = ctxFor(root, () => ({
      draft: { action: 'accept', content: { confirm: true, context: 'We need to pick a queue.' } },
    }));
    const out = await draftDecision.handler({ title: 'Use NATS for jobs' }, ctx as never);
    if ('raw' in out) throw new Error('structured expected');
    expect(out.structured).toMatchObject({
      created: true,
      id: '008',
      path: 'doc/adr/008-use-nats-for-jobs.md',
      format: 'nygard',
    });
    // Asked once, for confirmation and the missing context.
    const request = asked[0]?.draft as { params?: { requestedSchema?: { required?: string[] } } };
    expect(request.params?.requestedSchema?.required).toEqual(['confirm', 'context']);
    const text = fs.readFileSync(path.join(root, 'doc/adr/008-use-nats-for-jobs.md'), 'utf8');
    const parsed = parseDecision({
      text,
      path: 'doc/adr/008-use-nats-for-jobs.md',
      corpusPath: '008-use-nats-for-jobs.md',
    });
    expect(parsed).toMatchObject({
      decision: { format: 'nygard', status: 'proposed', title: 'Use NATS for jobs', number: 8 },
    });
    expect(text).toContain('We need to pick a queue.');
  });

  it('asks only for confirmation when the context is given; a decline writes nothing', async () => {
    const root = nygardRepo();
    const before = fs.readdirSync(path.join(root, 'doc/adr')).sort();
    const { ctx, asked } = ctxFor(root, () => ({ draft: { action: 'decline' } }));
    const out = await draftDecision.handler({ title: 'Use Rust', context: 'Speed.' }, ctx as never);
    if ('raw' in out) throw new Error('structured expected');
    expect(out.structured).toMatchObject({ created: false, id: null, path: null });
    const request = asked[0]?.draft as { params?: { requestedSchema?: { required?: string[] } } };
    expect(request.params?.requestedSchema?.required).toEqual(['confirm']);
    expect(fs.readdirSync(path.join(root, 'doc/adr')).sort()).toEqual(before);
  });

  it('never overwrites: numbers already taken on disk are skipped', async () => {
    const root = nygardRepo();
    const state = openDecisions(root, { watch: false });
    cleanups.push(() => state.kind === 'loaded' && state.corpus.close());
    if (state.kind !== 'loaded') throw new Error('corpus expected');
    const plan = planDraft(state.corpus);
    expect(plan).toMatchObject({ format: 'nygard', number: 8, width: 3 });
    // Someone else took 008 (another slug) and 009 (the same slug) after the plan was made.
    fs.writeFileSync(path.join(plan.folder, '008-other.md'), 'theirs');
    fs.writeFileSync(path.join(plan.folder, '009-same.md'), 'theirs too');
    const written = await writeRecord(plan, 'Same', 'ctx', '2026-02-02');
    expect(written.id).toBe('010');
    expect(fs.readFileSync(path.join(plan.folder, '008-other.md'), 'utf8')).toBe('theirs');
    expect(fs.readFileSync(path.join(plan.folder, '009-same.md'), 'utf8')).toBe('theirs too');
  });

  it('picks MADR where most records are MADR', () => {
    const { root, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const state = openDecisions(root, { watch: false });
    cleanups.push(() => state.kind === 'loaded' && state.corpus.close());
    if (state.kind !== 'loaded') throw new Error('corpus expected');
    const counts: Record<string, number> = {};
    for (const d of state.corpus.decisions) counts[d.format] = (counts[d.format] ?? 0) + 1;
    const dominant = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(planDraft(state.corpus).format).toBe(dominant);
    expect(planDraft(state.corpus).width).toBe(4);
  });

  it('is served only with allowWrites, and is not read-only', () => {
    const names = (allowWrites: boolean) =>
      createDecisionsPack({ watch: false, allowWrites }).tools.map((t) => t.name);
    expect(names(false)).not.toContain('draft_decision');
    expect(names(true)).toContain('draft_decision');
    expect(draftDecision.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });
});
