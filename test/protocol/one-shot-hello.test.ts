import { describe, expect, it } from 'vitest';
import { parseHello } from '../../src/protocol/hello.js';
import { ONE_SHOT_TOOLS, parseOneShotRequest } from '../../src/protocol/one-shot-hello.js';

const CALL = {
  build: '0.1.0@/opt/moor/dist/cli/main.js#1',
  workspace: '/repo',
  tool: 'search_decisions',
  arguments: { query: 'cache' },
};

describe('parseOneShotRequest', () => {
  it('takes a read-only decisions tool call with its build, workspace and folder', () => {
    expect(parseOneShotRequest({ ...CALL, decisions: '/repo/docs/adr' })).toEqual({
      ...CALL,
      decisions: '/repo/docs/adr',
    });
    expect(parseHello(JSON.stringify({ moor: 1, control: 'one-shot', oneShot: CALL }))).toEqual({
      moor: 1,
      control: 'one-shot',
      oneShot: CALL,
    });
  });

  it('offers only the tools that read', () => {
    expect(ONE_SHOT_TOOLS).not.toContain('draft_decision');
    expect(parseOneShotRequest({ ...CALL, tool: 'draft_decision' })).toEqual({
      error: `oneShot.tool must be one of ${ONE_SHOT_TOOLS.join(', ')}`,
    });
  });

  it('refuses each malformed part with its own message', () => {
    expect(parseOneShotRequest(undefined)).toEqual({ error: 'oneShot must be an object' });
    expect(parseOneShotRequest([CALL])).toEqual({ error: 'oneShot must be an object' });
    expect(parseOneShotRequest({ ...CALL, build: '' })).toEqual({
      error: 'oneShot.build must be the asking build stamp',
    });
    expect(parseOneShotRequest({ ...CALL, workspace: 'repo' })).toEqual({
      error: 'oneShot.workspace must be an absolute path',
    });
    expect(parseOneShotRequest({ ...CALL, decisions: 'docs/adr' })).toEqual({
      error: 'oneShot.decisions must be an absolute path',
    });
    expect(parseOneShotRequest({ ...CALL, arguments: ['cache'] })).toEqual({
      error: 'oneShot.arguments must be an object',
    });
    expect(parseHello(JSON.stringify({ moor: 1, control: 'one-shot' }))).toEqual({
      error: 'oneShot must be an object',
    });
  });
});
