/**
 * Each decisions tool's quick argument check (`accept`) may only say yes to
 * what its zod schema accepts, and must hand back exactly what the schema
 * would (same values, same key order, defaults in place): arbitrary
 * arguments, hostile ones included, are put to both.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../../src/host/pack.js';
import { checkDecisions } from '../../../../src/packs/decisions/tools/check-decisions.js';
import { getDecisionContext } from '../../../../src/packs/decisions/tools/context.js';
import { getDecision } from '../../../../src/packs/decisions/tools/get.js';
import { searchDecisions } from '../../../../src/packs/decisions/tools/search.js';
import { STATUSES } from '../../../../src/packs/decisions/tools/shared.js';
import { listSuperseded } from '../../../../src/packs/decisions/tools/superseded.js';

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', ' ', 'a'.repeat(200), 'a'.repeat(201), 'é'.repeat(513), 'x'.repeat(1025), '\ud800'),
  fc.integer({ min: 0, max: 1100 }).map((n) => 'q'.repeat(n)),
);
const value = fc.oneof(
  text,
  fc.constantFrom(...STATUSES, 'Accepted', 'bogus', '2024-01-31', '2024-1-31', '20240131'),
  fc.integer({ min: -3, max: 60 }),
  fc.constantFrom(0, -0, 1.5, 50, 51, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53),
  fc.constantFrom(null, true, false, undefined),
  fc.array(text, { maxLength: 3 }),
  fc.constantFrom(
    [],
    Array.from({ length: 200 }, () => 'f'),
    Array.from({ length: 201 }, () => 'f'),
  ),
  fc.object({ maxDepth: 1 }),
);

/** Mostly well-typed search arguments: the ones a check has something to say yes to. */
const searchLike = fc.record(
  {
    query: text,
    status: fc.constantFrom(...STATUSES, 'Accepted'),
    since: fc.constantFrom('2024-01-31', '2024-1-31', '9999-99-99'),
    until: fc.constantFrom('2024-12-31', ''),
    tag: text,
    log: text,
    limit: fc.oneof(fc.integer({ min: -1, max: 52 }), fc.constantFrom(1.5, Number.NaN)),
    cursor: text,
  },
  { requiredKeys: [] },
);

function argsFor(keys: readonly string[]) {
  const any = fc.dictionary(fc.constantFrom(...keys, 'extra'), value, { maxKeys: keys.length + 1 });
  return keys.includes('query') ? fc.oneof(any, searchLike) : any;
}

const TOOLS: Array<[ToolDefinition<unknown>, readonly string[]]> = [
  [getDecision as ToolDefinition<unknown>, ['ref']],
  [
    searchDecisions as ToolDefinition<unknown>,
    ['query', 'status', 'since', 'until', 'tag', 'log', 'limit', 'cursor'],
  ],
  [getDecisionContext as ToolDefinition<unknown>, ['files']],
  [listSuperseded as ToolDefinition<unknown>, []],
  [checkDecisions as ToolDefinition<unknown>, []],
];

describe('the decisions tools quick argument checks', () => {
  for (const [tool, keys] of TOOLS) {
    it(`${tool.name}: what the check accepts, the schema accepts alike`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(argsFor(keys), (args) => {
          const quick = tool.accept?.(args);
          if (quick === undefined) return;
          accepted += 1;
          const parsed = tool.input.safeParse(args);
          expect(parsed.success, JSON.stringify(args)).toBe(true);
          expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed.data));
        }),
        { numRuns: 3000 },
      );
      // The property was put to accepted arguments, not only to refusals.
      expect(accepted).toBeGreaterThan(30);
    });
  }

  it('accepts what the one-shot commands send, so they build no schema', () => {
    expect(getDecision.accept?.({ ref: '7' })).toEqual({ ref: '7' });
    expect(searchDecisions.accept?.({ query: 'event sourcing' })).toEqual({
      query: 'event sourcing',
      limit: 10,
    });
    expect(
      searchDecisions.accept?.({
        query: 'db',
        status: 'accepted',
        since: '2024-01-01',
        limit: 5,
        log: 'billing',
      }),
    ).toEqual({ query: 'db', status: 'accepted', since: '2024-01-01', log: 'billing', limit: 5 });
    expect(getDecisionContext.accept?.({ files: ['src/a.ts'] })).toEqual({ files: ['src/a.ts'] });
    expect(listSuperseded.accept?.({})).toEqual({});
    expect(checkDecisions.accept?.({})).toEqual({});
  });

  it('leaves anything doubtful to the schema, which words the refusal', () => {
    expect(searchDecisions.accept?.({ query: 'x', limit: 51 })).toBeUndefined();
    expect(searchDecisions.accept?.({ query: 'x', status: undefined })).toBeUndefined();
    expect(getDecision.accept?.({ ref: 'x'.repeat(1025) })).toBeUndefined();
    expect(getDecisionContext.accept?.({ files: [] })).toBeUndefined();
    expect(listSuperseded.accept?.({ extra: 1 })).toBeUndefined();
  });
});
