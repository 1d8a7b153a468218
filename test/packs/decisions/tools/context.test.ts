/**
 * get_decision_context: decisions caught in a supersession cycle are listed
 * with the cycle named, and neither side governs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getDecisionContext } from '../../../../src/packs/decisions/tools/context.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

describe('get_decision_context and supersession cycles', () => {
  it('lists both sides of a cycle under inCycle, governing nothing', async () => {
    ws = workspace({
      'src/db/pool.ts': 'x',
      'docs/decisions/0005-left.md': madr('Left', {
        status: 'accepted',
        supersedes: ['0006'],
        affects: ['src/db/**'],
      }),
      'docs/decisions/0006-right.md': madr('Right', {
        status: 'superseded',
        supersedes: ['0005'],
        affects: ['src/db/**'],
      }),
      'docs/decisions/0007-other.md': madr('Other', { status: 'accepted', affects: ['src/**'] }),
    });
    const out = await call(getDecisionContext, ws, { files: ['src/db/pool.ts'] });
    const [file] = out.structured.files as Array<Record<string, Array<Record<string, unknown>>>>;
    expect(file?.governing?.map((g) => g.id)).toEqual(['0007']);
    expect(file?.inCycle?.map((c) => [c.id, c.cycle])).toEqual([
      ['0005', ['0005', '0006']],
      ['0006', ['0005', '0006']],
    ]);
    expect(out.text).toContain(
      '- in a supersession cycle (0005 ↔ 0006), so it does not govern until the records are fixed: 0005 Left [accepted] docs/decisions/0005-left.md via src/db/**',
    );
    expect(out.text).toContain('0006 Right [superseded]');
  });

  it('a decision replaced by a cycle member lands in the cycle list with what it replaced', async () => {
    ws = workspace({
      'docs/decisions/0001-old.md': madr('Old', { status: 'superseded', affects: ['lib/**'] }),
      'docs/decisions/0002-a.md': madr('A', { status: 'accepted', supersedes: ['0001', '0003'] }),
      'docs/decisions/0003-b.md': madr('B', { status: 'accepted', supersedes: ['0002'] }),
    });
    const out = await call(getDecisionContext, ws, { files: ['lib/x.ts'] });
    const [file] = out.structured.files as Array<Record<string, Array<Record<string, unknown>>>>;
    expect(file?.governing).toEqual([]);
    expect(file?.inCycle?.map((c) => [c.id, c.replaces, c.cycle])).toEqual([
      ['0002', ['0001'], ['0002', '0003']],
    ]);
  });

  it('without cycles inCycle is empty', async () => {
    ws = workspace({ 'docs/decisions/0001-a.md': madr('A', { status: 'accepted', affects: ['src/**'] }) });
    const out = await call(getDecisionContext, ws, { files: ['src/a.ts', 'elsewhere.md'] });
    const files = out.structured.files as Array<Record<string, unknown>>;
    expect(files.map((f) => f.inCycle)).toEqual([[], []]);
    expect(out.text).toBe(
      'src/a.ts:\n- 0001 A [accepted] docs/decisions/0001-a.md via src/**\nelsewhere.md: no decision governs this file',
    );
  });
});
