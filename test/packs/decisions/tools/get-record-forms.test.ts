/**
 * get_decision on proposal-process records: the creation date under another
 * key is the date, the last update is shown beside it, and the status word
 * as written is kept beside its normalized status.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getDecision } from '../../../../src/packs/decisions/tools/get.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

describe('get_decision on a proposal-process record', () => {
  it('shows the creation date, the last update and the raw status', async () => {
    ws = workspace({
      'docs/decisions/0023-queues.md': madr('Queue the jobs', {
        status: 'implementable',
        'creation-date': '2021-03-04',
        'last-updated': '2023-01-09',
        replaces: ['TEP-0002'],
      }),
      'docs/decisions/0002-poll.md': madr('Poll', { status: 'replaced' }),
    });
    const { structured, text } = await call(getDecision, ws, { ref: 'TEP-0023' });
    expect(structured).toMatchObject({
      id: '0023',
      status: 'accepted',
      statusRaw: 'implementable',
      date: '2021-03-04',
      updated: '2023-01-09',
      // The prefixed ref resolves: the relation names the record it found.
      supersedes: ['0002'],
    });
    expect(text).toContain('Status: accepted (implementable)\nDate: 2021-03-04\nUpdated: 2023-01-09\n');
    expect(structured.relations).toMatchObject({ supersedes: [{ ref: '0002', state: 'resolved' }] });
  });

  it('leaves `updated` out when the record gives no update date', async () => {
    ws = workspace({ 'docs/decisions/0001-a.md': madr('A', { status: 'accepted', date: '2020-01-01' }) });
    const { structured, text } = await call(getDecision, ws, { ref: '1' });
    expect('updated' in structured).toBe(false);
    expect(text).not.toContain('Updated:');
  });
});
