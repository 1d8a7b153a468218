/**
 * ResultMemo and runTool with a memo: a pure tool's answer is kept for the
 * state version it was computed at and for nothing else; impure tools,
 * unversioned states, failures and oversized arguments are never kept; a
 * path without a memo always runs the handler.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Workspace } from '../../src/host/call-scope.js';
import { definePack, defineTool, erasePack } from '../../src/host/pack.js';
import { MEMO_ENTRIES_PER_WORKSPACE, MEMO_MAX_KEY_LENGTH, ResultMemo } from '../../src/host/result-memo.js';
import { type CallEnvironment, runTool } from '../../src/host/tool-run.js';

interface CounterState {
  version: string | undefined;
  runs: number;
}

function pack(pure: boolean) {
  const state: CounterState = { version: 'v1', runs: 0 };
  const tool = defineTool<
    CounterState,
    z.ZodObject<{ n: z.ZodDefault<z.ZodNumber> }>,
    z.ZodObject<{ n: z.ZodNumber; at: z.ZodString; runs: z.ZodNumber }>
  >({
    name: 'count',
    title: 'Count',
    description: 'Answers n, with the state version and how often it ran.',
    input: z.object({ n: z.number().default(1) }),
    output: z.object({ n: z.number(), at: z.string(), runs: z.number() }),
    annotations: { readOnlyHint: true },
    pure,
    handler: (args, ctx) => {
      ctx.state.runs += 1;
      if (args.n < 0) throw new Error('negative');
      const structured = { n: args.n, at: ctx.state.version ?? 'none', runs: ctx.state.runs };
      return { structured, text: JSON.stringify(structured) };
    },
  });
  const p = definePack<CounterState>({
    name: 'counter',
    instructions: 'Counter.',
    tools: [tool],
    resources: [],
    open: () => state,
    version: (s) => s.version,
  });
  return { entry: { pack: erasePack(p), definition: tool as never }, state };
}

function env(memo: ResultMemo | undefined): CallEnvironment {
  return {
    signal: new AbortController().signal,
    progress: async () => {},
    onInternalError: () => {},
    ...(memo === undefined ? {} : { memo }),
  };
}

describe('runTool with a memo', () => {
  it('answers a pure call again from the memo at the same version, and runs it again at a new one', async () => {
    const { entry, state } = pack(true);
    const target = { sessionKey: undefined, workspace: new Workspace('/tmp/memo') };
    const memo = new ResultMemo();
    const first = await runTool(entry, target, { n: 2 }, env(memo));
    // Defaults applied before the key: { n: 1 } and {} are one call.
    const second = await runTool(entry, target, { n: 2 }, env(memo));
    expect(second).toBe(first);
    expect(state.runs).toBe(1);
    expect(await runTool(entry, target, {}, env(memo))).toBe(
      await runTool(entry, target, { n: 1 }, env(memo)),
    );
    expect(state.runs).toBe(2);

    state.version = 'v2';
    const third = await runTool(entry, target, { n: 2 }, env(memo));
    expect(third).not.toBe(first);
    expect(third.structuredContent).toEqual({ n: 2, at: 'v2', runs: 3 });
    expect(memo.holds(third)).toBe(true);
    expect(memo.stats).toEqual({ hits: 2, misses: 3 });
  });

  it('never keeps an impure tool, an unversioned state, a failure, or a call with no memo', async () => {
    const target = { sessionKey: undefined, workspace: new Workspace('/tmp/memo') };
    const memo = new ResultMemo();
    const impure = pack(false);
    await runTool(impure.entry, target, { n: 1 }, env(memo));
    await runTool(impure.entry, target, { n: 1 }, env(memo));
    expect(impure.state.runs).toBe(2);

    const unversioned = pack(true);
    unversioned.state.version = undefined;
    await runTool(unversioned.entry, target, { n: 1 }, env(memo));
    await runTool(unversioned.entry, target, { n: 1 }, env(memo));
    expect(unversioned.state.runs).toBe(2);

    const failing = pack(true);
    const failed = await runTool(failing.entry, target, { n: -1 }, env(memo));
    expect(failed.isError).toBe(true);
    expect(memo.holds(failed)).toBe(false);
    await runTool(failing.entry, target, { n: -1 }, env(memo));
    expect(failing.state.runs).toBe(2);

    const plain = pack(true);
    await runTool(plain.entry, target, { n: 1 }, env(undefined));
    await runTool(plain.entry, target, { n: 1 }, env(undefined));
    expect(plain.state.runs).toBe(2);
  });
});

describe('ResultMemo', () => {
  const result = (text: string) => ({ content: [{ type: 'text' as const, text }] });

  it('keeps at most its bound per workspace, the oldest going first, and refuses oversized keys', () => {
    const memo = new ResultMemo();
    const workspace = {};
    for (let i = 0; i <= MEMO_ENTRIES_PER_WORKSPACE; i++)
      memo.put(workspace, 'v', `k${i}`, result(String(i)));
    expect(memo.get(workspace, 'v', 'k0')).toBeUndefined();
    expect(memo.get(workspace, 'v', 'k1')?.content[0]?.text).toBe('1');
    expect(memo.get(workspace, 'v', `k${MEMO_ENTRIES_PER_WORKSPACE}`)).toBeDefined();
    expect(memo.keyOf('t', { s: 'x'.repeat(MEMO_MAX_KEY_LENGTH) })).toBeUndefined();
    expect(memo.keyOf('t', { s: 'x' })).toBe('t\u0000{"s":"x"}');
  });

  it('serves an entry only at its version, and keeps workspaces apart', () => {
    const memo = new ResultMemo();
    const a = {};
    const b = {};
    memo.put(a, 'v1', 'k', result('a1'));
    expect(memo.get(b, 'v1', 'k')).toBeUndefined();
    expect(memo.get(a, 'v2', 'k')).toBeUndefined();
    // The version moved on: what was kept for v1 is gone, also if v1 comes back.
    expect(memo.get(a, 'v1', 'k')).toBeUndefined();
  });
});
