import { describe, expect, it } from 'vitest';
import { MoorError } from '../../../src/errors.js';
import { ListenBudget } from '../../../src/host/events/listen-budget.js';

const uris = (n: number, prefix = 'u') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

function refusal(fn: () => unknown): MoorError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MoorError);
    return error as MoorError;
  }
  throw new MoorError('INTERNAL', 'expected a refusal');
}

describe('ListenBudget', () => {
  it('refuses a stream of 257 distinct URIs (duplicates count once), with one warning per lifetime', () => {
    const warnings: string[] = [];
    const budget = new ListenBudget({ warn: (m) => warnings.push(m) });
    const release = budget.reserve([...uris(256), 'u0', 'u1']);
    expect(budget.held).toBe(256);
    const error = refusal(() => budget.reserve(uris(257)));
    expect(error.code).toBe('LISTEN_LIMIT');
    expect(error.spec.http).toBe(429);
    refusal(() => budget.reserve(uris(300)));
    expect(warnings).toHaveLength(1);
    release();
    release();
    expect(budget.held).toBe(0);
  });

  it('holds memberships across streams and gives them back on release', () => {
    const budget = new ListenBudget({ maxUris: 10, maxMemberships: 15 });
    const first = budget.reserve(uris(10));
    expect(refusal(() => budget.reserve(uris(6))).message).toContain('already watch 10');
    const second = budget.reserve(uris(5));
    expect(budget.held).toBe(15);
    first();
    budget.reserve(uris(10));
    second();
    expect(budget.held).toBe(10);
  });

  it('gives each session a share: one session cannot take the daemon’s whole bound', () => {
    const budget = new ListenBudget({ maxUris: 10, maxMemberships: 40 });
    expect(budget.maxPerSession).toBe(10);
    const greedy = { owner: 'moor-session-greedy' };
    budget.reserve(uris(10), greedy);
    const error = refusal(() => budget.reserve(uris(1, 'v'), greedy));
    expect(error.code).toBe('LISTEN_LIMIT');
    expect(error.message).toContain('already watch 10 resource URIs (at most 10 per session)');
    expect(error.data).toMatchObject({ maxPerSession: 10 });
    // Another session, and the streams without a session, still get theirs.
    budget.reserve(uris(10), { owner: 'moor-session-other' });
    const anonymous = budget.reserve(uris(10), { owner: undefined });
    expect(budget.heldBy(undefined)).toBe(10);
    anonymous();
    expect(budget.heldBy(undefined)).toBe(0);
    expect(budget.held).toBe(20);
  });

  it('charges nothing for URIs that name no resource (they still count on their stream)', () => {
    const budget = new ListenBudget({ maxUris: 10, maxMemberships: 40 });
    const names = (uri: string) => uri.startsWith('real:');
    const share = { owner: 'moor-session-madeup', names };
    for (let i = 0; i < 20; i++) budget.reserve(uris(10, `made-up-${i}-`), share);
    expect(budget.held).toBe(0);
    expect(budget.heldBy('moor-session-madeup')).toBe(0);
    budget.reserve([...uris(3, 'real:'), ...uris(7, 'fake:')], share);
    expect(budget.held).toBe(3);
    expect(refusal(() => budget.reserve(uris(11, 'fake:'), share)).message).toContain(
      'at most 10 resource URIs',
    );
  });
});
