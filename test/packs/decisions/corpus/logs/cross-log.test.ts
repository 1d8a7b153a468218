/**
 * Supersession between records of two logs: declared on both sides it is one
 * relation, and the superseded record's files are governed by its successor
 * in the other log, as within one log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getDecisionContext } from '../../../../../src/packs/decisions/tools/context.js';
import { getDecision } from '../../../../../src/packs/decisions/tools/get.js';
import { listSuperseded } from '../../../../../src/packs/decisions/tools/superseded.js';
import { call, madr, type Workspace, workspace } from '../../tools/helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

function twoLogs(tokensStatus: string): Workspace {
  return workspace({
    'packages/billing/docs/adr/0001-shared-tokens.md': madr('Billing issues the shared tokens', {
      status: 'accepted',
      supersedes: 'auth:0001',
    }),
    'services/auth/decisions/0001-opaque-tokens.md': madr('Opaque tokens', {
      status: tokensStatus,
      'superseded-by': 'billing:0001',
      affects: 'services/auth/src/**',
    }),
  });
}

describe('supersession across logs', () => {
  it('declared on both sides, it is one resolved relation', async () => {
    ws = twoLogs('superseded');
    const out = await call(listSuperseded, ws, {});
    expect(out.text).toMatch(/^1 supersession relations: 1 resolved/);
    expect((await call(getDecision, ws, { ref: 'auth:0001' })).structured.supersededBy).toEqual([
      'billing:0001',
    ]);
  });

  it.each(['superseded', 'accepted'])(
    'the successor in the other log governs the superseded record’s files (its status %s)',
    async (status) => {
      ws = twoLogs(status);
      const out = await call(getDecisionContext, ws, { files: ['services/auth/src/session.ts'] });
      const [file] = out.structured.files as Array<{ governing: Array<{ id: string; replaces: string[] }> }>;
      expect(file?.governing.map((g) => [g.id, g.replaces])).toEqual([['billing:0001', ['auth:0001']]]);
    },
  );
});
