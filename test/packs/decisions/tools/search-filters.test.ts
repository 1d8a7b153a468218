/**
 * search_decisions' date and tag filters: `since` / `until` bound the
 * record's date (undated records never pass a date filter), `tag` matches
 * a tag case-insensitively, and they combine with status and paging.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { searchDecisions } from '../../../../src/packs/decisions/tools/search.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

function corpus(): Workspace {
  return workspace({
    'docs/decisions/0001-cache-a.md': madr('Cache A', {
      status: 'accepted',
      date: '2024-01-10',
      tags: ['Storage'],
    }),
    'docs/decisions/0002-cache-b.md': madr('Cache B', {
      status: 'accepted',
      date: '2024-06-10',
      tags: ['api'],
    }),
    'docs/decisions/0003-cache-c.md': madr('Cache C', {
      status: 'proposed',
      date: '2025-02-01',
      tags: ['storage'],
    }),
    'docs/decisions/0004-cache-d.md': madr('Cache D', { status: 'accepted' }),
  });
}

const ids = (out: { structured: Record<string, unknown> }) =>
  (out.structured.hits as Array<{ id: string }>).map((h) => h.id).sort();

describe('search_decisions filters', () => {
  it('since and until bound the date, inclusively; an undated record passes no date filter', async () => {
    ws = corpus();
    expect(ids(await call(searchDecisions, ws, { query: 'cache', since: '2024-06-10' }))).toEqual([
      '0002',
      '0003',
    ]);
    expect(ids(await call(searchDecisions, ws, { query: 'cache', until: '2024-06-10' }))).toEqual([
      '0001',
      '0002',
    ]);
    expect(
      ids(await call(searchDecisions, ws, { query: 'cache', since: '2024-02-01', until: '2024-12-31' })),
    ).toEqual(['0002']);
    expect(ids(await call(searchDecisions, ws, { query: 'cache' }))).toEqual([
      '0001',
      '0002',
      '0003',
      '0004',
    ]);
  });

  it('tag matches case-insensitively and combines with status; total counts the filtered hits', async () => {
    ws = corpus();
    expect(ids(await call(searchDecisions, ws, { query: 'cache', tag: 'STORAGE' }))).toEqual([
      '0001',
      '0003',
    ]);
    const out = await call(searchDecisions, ws, { query: 'cache', tag: 'storage', status: 'accepted' });
    expect(ids(out)).toEqual(['0001']);
    expect(out.structured.total).toBe(1);
  });

  it('pages with a cursor that belongs to the filtered query only', async () => {
    ws = corpus();
    const first = await call(searchDecisions, ws, { query: 'cache', tag: 'storage', limit: 1 });
    const cursor = first.structured.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const second = await call(searchDecisions, ws, { query: 'cache', tag: 'storage', limit: 1, cursor });
    expect([...ids(first), ...ids(second)].sort()).toEqual(['0001', '0003']);
    await expect(call(searchDecisions, ws, { query: 'cache', limit: 1, cursor })).rejects.toMatchObject({
      code: 'INVALID_CURSOR',
    });
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => searchDecisions.input.parse({ query: 'x', since: '10/01/2024' })).toThrow(/YYYY-MM-DD/);
  });
});
