/**
 * list_superseded: superseded records that name no successor are listed, not
 * lost because they have no edge.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listSuperseded } from '../../../../src/packs/decisions/tools/superseded.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

describe('list_superseded', () => {
  it('lists superseded records without a successor beside the edges', async () => {
    ws = workspace({
      'docs/decisions/0001-replaced.md': madr('Replaced', { status: 'superseded', date: '2024-01-02' }),
      'docs/decisions/0002-new.md': madr('New', { status: 'accepted', supersedes: ['0001'] }),
      'docs/decisions/0003-orphan.md': madr('Orphan', { status: 'superseded' }),
      'docs/decisions/0004-named.md': madr('Named', { status: 'superseded', 'superseded-by': '0099' }),
    });
    const out = await call(listSuperseded, ws, {});
    expect(out.structured.withoutSuccessor).toEqual([
      {
        id: '0003',
        title: 'Orphan',
        status: 'superseded',
        date: null,
        path: 'docs/decisions/0003-orphan.md',
      },
    ]);
    expect(out.structured.counts).toEqual({
      resolved: 1,
      dangling: 1,
      ambiguous: 0,
      cycle: 0,
      withoutSuccessor: 1,
    });
    expect(out.text).toContain(
      '1 superseded records name no successor:\n- 0003 Orphan [superseded] docs/decisions/0003-orphan.md: superseded, but no successor named',
    );
  });
});
