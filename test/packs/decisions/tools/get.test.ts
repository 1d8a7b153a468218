/**
 * get_decision: files that exist but could not be read are named with the
 * reason (never "no decision matches"), and every relation carries its state.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../src/errors.js';
import { getDecision } from '../../../../src/packs/decisions/tools/get.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

async function refusal(args: Record<string, unknown>): Promise<ToolError> {
  const error = await call(getDecision, ws as Workspace, args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('get_decision on files that could not be read', () => {
  it('names an empty file and says it is empty, by number, stem and path', async () => {
    ws = workspace({
      'docs/decisions/0001-ok.md': madr('Fine', { status: 'accepted' }),
      'docs/decisions/0007-empty.md': '',
    });
    for (const ref of ['7', '0007', 'ADR-7', '0007-empty', 'docs/decisions/0007-empty.md', '0007-empty.md']) {
      const error = await refusal({ ref });
      expect(error.code).toBe('DECISION_UNREADABLE');
      expect(error.message).toContain('docs/decisions/0007-empty.md: file is empty');
      expect(error.message).not.toContain('No decision matches');
    }
  });

  it('names broken front matter with the parser reason', async () => {
    ws = workspace({ 'docs/decisions/0004-broken.md': '---\nstatus: [unclosed\n---\n# Broken\n' });
    const error = await refusal({ ref: '4' });
    expect(error.code).toBe('DECISION_UNREADABLE');
    expect(error.message).toMatch(
      /^"4" names a file in the decision folder that could not be read as a decision:\n- docs\/decisions\/0004-broken\.md: .+/,
    );
  });

  it('still answers DECISION_NOT_FOUND when no file of that name exists', async () => {
    ws = workspace({
      'docs/decisions/0001-ok.md': madr('Fine', { status: 'accepted' }),
      'docs/decisions/0007-empty.md': '',
    });
    const error = await refusal({ ref: '42' });
    expect(error.code).toBe('DECISION_NOT_FOUND');
  });
});

describe('get_decision relation states', () => {
  it('reports resolved, dangling, ambiguous and cycle links in the payload and the text', async () => {
    ws = workspace({
      'docs/decisions/0001-base.md': madr('Base', { status: 'superseded' }),
      'docs/decisions/0002-next.md': madr('Next', {
        status: 'accepted',
        supersedes: ['0001', '0099', 'shared'],
        amends: ['0001'],
      }),
      'docs/decisions/a/0003-shared.md': madr('Shared A', { status: 'accepted' }),
      'docs/decisions/b/0004-shared.md': madr('Shared B', { status: 'accepted' }),
      'docs/decisions/0005-left.md': madr('Left', { status: 'accepted', supersedes: ['0006'] }),
      'docs/decisions/0006-right.md': madr('Right', { status: 'accepted', supersedes: ['0005'] }),
    });
    const next = await call(getDecision, ws, { ref: '2' });
    const relations = next.structured.relations as Record<string, Array<Record<string, unknown>>>;
    expect(relations.supersedes).toEqual([
      {
        ref: '0099',
        state: 'dangling',
        path: null,
        candidates: [],
        declaredBy: ['docs/decisions/0002-next.md'],
        partial: false,
      },
      {
        ref: '0001',
        state: 'resolved',
        path: 'docs/decisions/0001-base.md',
        candidates: [],
        declaredBy: ['docs/decisions/0002-next.md'],
        partial: false,
      },
      {
        ref: 'shared',
        state: 'ambiguous',
        path: null,
        candidates: ['docs/decisions/a/0003-shared.md', 'docs/decisions/b/0004-shared.md'],
        declaredBy: ['docs/decisions/0002-next.md'],
        partial: false,
      },
    ]);
    expect(relations.amends).toEqual([
      {
        ref: '0001',
        state: 'resolved',
        path: 'docs/decisions/0001-base.md',
        candidates: [],
        declaredBy: ['docs/decisions/0002-next.md'],
        partial: false,
      },
    ]);
    // Edges come in graph order (by path, unresolved refs by their text).
    expect(next.structured.supersedes).toEqual(['0099', '0001', 'shared']);
    expect(next.text).toContain(
      'Supersedes: 0099 (dangling: no decision matches "0099"), 0001, shared (ambiguous: docs/decisions/a/0003-shared.md, docs/decisions/b/0004-shared.md)',
    );

    // The other side sees both declarations: superseded by 0002, amended by 0002 (declared only on 0002).
    const base = await call(getDecision, ws, { ref: '1' });
    const baseRelations = base.structured.relations as Record<string, Array<Record<string, unknown>>>;
    expect(baseRelations.supersededBy).toEqual([
      {
        ref: '0002',
        state: 'resolved',
        path: 'docs/decisions/0002-next.md',
        candidates: [],
        declaredBy: ['docs/decisions/0002-next.md'],
        partial: false,
      },
    ]);
    expect(baseRelations.amendedBy).toEqual([
      {
        ref: '0002',
        state: 'resolved',
        path: 'docs/decisions/0002-next.md',
        candidates: [],
        declaredBy: ['docs/decisions/0002-next.md'],
        partial: false,
      },
    ]);
    expect(base.text).toContain('Superseded by: 0002');
    expect(base.text).toContain('Amended by: 0002');

    const left = await call(getDecision, ws, { ref: '5' });
    const leftRelations = left.structured.relations as Record<string, Array<Record<string, unknown>>>;
    expect(leftRelations.supersedes).toEqual([
      {
        ref: '0006',
        state: 'cycle',
        path: 'docs/decisions/0006-right.md',
        candidates: [],
        declaredBy: ['docs/decisions/0005-left.md'],
        partial: false,
      },
    ]);
    expect(leftRelations.supersededBy.map((r) => [r.ref, r.state])).toEqual([['0006', 'cycle']]);
    expect(left.text).toContain('Supersedes: 0006 (in a supersession cycle: neither side governs)');
  });

  it('a dangling amendment names what is missing', async () => {
    ws = workspace({ 'docs/decisions/0001-a.md': madr('A', { status: 'accepted', amends: ['ADR-77'] }) });
    const a = await call(getDecision, ws, { ref: '1' });
    expect((a.structured.relations as Record<string, unknown>).amends).toEqual([
      {
        ref: 'ADR-77',
        state: 'dangling',
        path: null,
        candidates: [],
        declaredBy: ['docs/decisions/0001-a.md'],
        partial: false,
      },
    ]);
    expect(a.text).toContain('Amends: ADR-77 (dangling: no decision matches "ADR-77")');
  });
});
